/** The catalogue: every exercise by slug, parsed (a malformed one throws when the grader loads). */
import { Exercise } from "./exercise.js";
import { EASY } from "./easy.js";
import { HARD } from "./hard.js";
import { MEDIUM } from "./medium.js";

export const EXERCISES: ReadonlyMap<string, Exercise> = new Map(
  [...EASY, ...MEDIUM, ...HARD].map((raw) => {
    const parsed = Exercise.safeParse(raw);
    if (!parsed.success) throw new Error(`exercise ${raw.slug}: ${parsed.error.issues[0]?.message ?? "malformed"} at ${parsed.error.issues[0]?.path.join(".") ?? "?"}`);
    return [parsed.data.slug, parsed.data];
  }),
);
