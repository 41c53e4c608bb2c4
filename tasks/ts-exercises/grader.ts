/**
 * Trusted grader of ts-exercises: one call per instance. The task agent gets an exercise
 * (statement, signature, examples; never the hidden tests) and answers with TypeScript source.
 * The source never runs here: `ctx.runTests` type-checks and calls it in a fresh hardened
 * container, and the expected values are compared on the host. Score = share of the
 * exercise's tests passed; a compile error, a rule broken (exit, flood, memory, the file
 * system or the network) or no code at all scores 0 with the reason.
 */
import { codeTestOutcome, defineGrader, noAnswer, parseAnswer, quote, z, zeroScore } from "evolve/task";
import { exerciseInput } from "./exercises/exercise.js";
import { EXERCISES } from "./exercises/index.js";

const Instance = z.strictObject({
  id: z.string().refine((id) => EXERCISES.has(id), "not an exercise of this task (see exercises/)"),
});
type Instance = z.infer<typeof Instance>;

/** The answer: the module's source, as a string or as { source } (other keys are ignored). */
const Answer = z.union([z.string(), z.looseObject({ source: z.string(), note: z.string().optional() })]);

export const grader = defineGrader<Instance>({
  instanceSchema: Instance,
  async grade(instance, solve, ctx) {
    const exercise = EXERCISES.get(instance.id);
    if (exercise === undefined) return zeroScore(`unknown exercise ${quote(instance.id)}`);
    const reply = await solve(exerciseInput(exercise) as never);
    if (!reply.ok) return noAnswer(reply);
    const answer = parseAnswer(Answer, reply.value);
    if (!answer.ok) return zeroScore(`unusable answer: ${answer.reason}; answer with the source text, or { "source": "..." }`);
    const source = typeof answer.value === "string" ? answer.value : answer.value.source;
    const note = typeof answer.value === "string" ? undefined : answer.value.note;
    if (source.trim() === "") return zeroScore(`no code in the answer${note === undefined ? "" : ` (the task agent says ${quote(note, 200)})`}`);
    if (ctx.runTests === undefined) return zeroScore("no code-test sandbox in this context");
    const report = await ctx.runTests({
      source,
      exports: [{ name: exercise.fn, type: exercise.type }],
      declarations: exercise.declarations ?? "",
      tests: exercise.tests.map((t) => ({ name: t.name, export: exercise.fn, args: t.args as never, expect: t.expect as never, compare: exercise.compare ?? "equal" })),
      callTimeoutMs: exercise.timeoutMs ?? 2_000,
    });
    return codeTestOutcome(report);
  },
});
