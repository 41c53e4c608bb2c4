/**
 * What one exercise is: a statement, the function to write (its signature as the solver sees
 * it, and its type as the grader checks it), examples and hidden tests. Examples are tests
 * too; they alone are shown to the task agent. The catalogue is parsed with this schema when
 * the grader loads, so a malformed exercise stops `evolve check` instead of scoring oddly.
 */
import { z } from "evolve/task";

const Json: z.ZodType<unknown> = z.lazy(() => z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(Json), z.record(z.string(), Json)]));

export const ExerciseTest = z.strictObject({
  name: z.string().min(1).max(120),
  args: z.array(Json),
  expect: Json,
  /** Shown to the task agent (in the input's `examples`); every test is graded, examples too. */
  example: z.literal(true).optional(),
});
export type ExerciseTest = z.infer<typeof ExerciseTest>;

export const Exercise = z
  .strictObject({
    slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
    title: z.string().min(1),
    difficulty: z.enum(["easy", "medium", "hard"]),
    statement: z.string().min(20),
    /** The export to write. */
    fn: z.string().regex(/^[a-z][A-Za-z0-9]*$/),
    /** As the solver sees it: `function median(xs: number[]): number | null`. */
    signature: z.string().min(1),
    /** As the grader checks it: `(xs: number[]) => number | null`. */
    type: z.string().min(1),
    /** Types the signature names, shown to the solver before it. */
    declarations: z.string().optional(),
    /** How values are compared (default "equal"; "unordered" arrays; { approx } numbers). */
    compare: z.union([z.literal("equal"), z.literal("unordered"), z.strictObject({ approx: z.number().positive() })]).optional(),
    /** Wall clock of one call (default 2 s). */
    timeoutMs: z.number().int().positive().max(10_000).optional(),
    tests: z.array(ExerciseTest).min(5).max(40),
  })
  .refine((e) => e.tests.some((t) => t.example === true), "an exercise shows at least one example")
  .refine((e) => e.tests.some((t) => t.example !== true), "an exercise keeps at least one test hidden")
  .refine((e) => new Set(e.tests.map((t) => t.name)).size === e.tests.length, "test names are unique");
export type Exercise = z.infer<typeof Exercise>;

/** `median([1, 3, 2])`: a call as TypeScript text. */
export function callText(exercise: Pick<Exercise, "fn">, args: readonly unknown[]): string {
  return `${exercise.fn}(${args.map((a) => JSON.stringify(a)).join(", ")})`;
}

/** What `solve` receives for an exercise: everything but the hidden tests. */
export interface ExerciseInput {
  kind: "ts-exercise";
  language: "typescript";
  title: string;
  difficulty: Exercise["difficulty"];
  statement: string;
  /** `export function median(xs: number[]): number | null` (after any declarations it needs). */
  signature: string;
  examples: { call: string; result: string }[];
}

export function exerciseInput(exercise: Exercise): ExerciseInput {
  const declarations = exercise.declarations === undefined ? "" : `${exercise.declarations}\n`;
  return {
    kind: "ts-exercise",
    language: "typescript",
    title: exercise.title,
    difficulty: exercise.difficulty,
    statement: exercise.statement,
    signature: `${declarations}export ${exercise.signature}`,
    examples: exercise.tests.filter((t) => t.example === true).map((t) => ({ call: callText(exercise, t.args), result: JSON.stringify(t.expect) })),
  };
}

/** Defines one exercise (typed; the catalogue parses it on load). */
export function exercise(e: z.input<typeof Exercise>): z.input<typeof Exercise> {
  return e;
}
