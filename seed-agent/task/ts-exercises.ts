/**
 * ts-exercises: asks the model for the function, once, with a plain prompt, and takes the
 * module out of its reply. Offline (no model) it answers no code and says why, so the grader
 * scores 0 with that reason. What a meta agent can improve here: the prompt (the knobs below
 * and the wording), retries when the answer does not compile, a test-first workflow, tools.
 */
import type { Json, SolveContext } from "@evolve/contract";

export const params = {
  includeSignature: true, // evolve:flag
  includeExamples: false, // evolve:flag
  temperature: 0.2, // evolve:range 0..1
  maxTokens: 1500, // evolve:range 256..4000 int
};

interface Exercise {
  title: string;
  statement: string;
  signature: string;
  examples: { call: string; result: string }[];
}

function text(value: Json | undefined): string {
  return typeof value === "string" ? value : "";
}

/** The exercise as the harness sent it (any field may be missing: read defensively). */
function readExercise(input: Json): Exercise {
  const fields = input !== null && typeof input === "object" && !Array.isArray(input) ? input : {};
  const examples = Array.isArray(fields["examples"]) ? fields["examples"] : [];
  return {
    title: text(fields["title"]),
    statement: text(fields["statement"]),
    signature: text(fields["signature"]),
    examples: examples.flatMap((e) => (e !== null && typeof e === "object" && !Array.isArray(e) ? [{ call: text(e["call"]), result: text(e["result"]) }] : [])),
  };
}

export const SYSTEM_PROMPT = "You write TypeScript. Answer with the whole module in one ```ts fenced code block.";

export function buildPrompt(exercise: Exercise): string {
  const parts = [`Exercise: ${exercise.title}`, exercise.statement];
  if (params.includeSignature && exercise.signature !== "") parts.push(`Signature:\n${exercise.signature}`);
  if (params.includeExamples && exercise.examples.length > 0) parts.push(`Examples:\n${exercise.examples.map((e) => `${e.call} returns ${e.result}`).join("\n")}`);
  parts.push("Write the module.");
  return parts.join("\n\n");
}

/** The first fenced code block of the reply, or the whole reply when it has none. */
export function extractCode(reply: string): string {
  const fenced = /```[a-zA-Z]*\n([\s\S]*?)```/.exec(reply);
  return (fenced?.[1] ?? reply).trim();
}

export async function solveTsExercise(input: Json, ctx: SolveContext): Promise<Json> {
  if (!ctx.llm.available) return { source: "", note: "no model: this solver asks ctx.llm, and the run has none (offline)" };
  const exercise = readExercise(input);
  try {
    const reply = await ctx.llm.complete({
      messages: [
        { role: "system", content: SYSTEM_PROMPT },
        { role: "user", content: buildPrompt(exercise) },
      ],
      temperature: params.temperature,
      maxTokens: params.maxTokens,
    });
    return { source: extractCode(reply.content) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { source: "", note: `the model call failed (${typeof code === "string" ? code : "error"}): ${error instanceof Error ? error.message.slice(0, 200) : String(error)}` };
  }
}
