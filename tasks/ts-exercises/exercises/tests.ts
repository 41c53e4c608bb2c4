/** Shorthands for an exercise's tests: `test` is hidden from the task agent, `example` is shown. */
import type { ExerciseTest } from "./exercise.js";

export function test(name: string, args: unknown[], expect: unknown): ExerciseTest {
  return { name, args, expect };
}

export function example(name: string, args: unknown[], expect: unknown): ExerciseTest {
  return { name, args, expect, example: true };
}
