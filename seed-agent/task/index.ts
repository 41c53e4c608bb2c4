/** The seed task agent: one `solve` for every built-in task, dispatching on ctx.task. */
import type { Json, SolveContext, SolveFn } from "@evolve/contract";
import { solveCirclePacking } from "./circle-packing.js";
import { solveEmailValidation } from "./email-validation.js";
import { solveSnake } from "./snake.js";
import { solveTsExercise } from "./ts-exercises.js";

export const solve: SolveFn = async (input: Json, ctx: SolveContext): Promise<Json> => {
  switch (ctx.task) {
    case "circle-packing":
      return solveCirclePacking(input, ctx);
    case "email-validation":
      return solveEmailValidation(input);
    case "snake":
      return solveSnake(input);
    case "ts-exercises":
      return solveTsExercise(input, ctx);
    default:
      throw new Error(`this agent does not know the task "${ctx.task}"`);
  }
};
