/**
 * The task agent: `solve` answers one call of the grader. It runs only in a container: no
 * network, no file system outside /tmp, no host. `ctx.task` names the task, `ctx.llm` is a
 * chat model when the run has one, `ctx.random()` is seeded, `ctx.deadline` is when to stop.
 *
 * This one is a placeholder for the task `evolve new task` writes (sort numbers): one pass
 * of bubble sort, a start and no more. Your meta agent's job is to make it better.
 */
import type { Json, SolveContext, SolveFn } from "@evolve/contract";

export const solve: SolveFn = async (input: Json, ctx: SolveContext): Promise<Json> => {
  if (typeof input === "object" && input !== null && !Array.isArray(input) && Array.isArray(input["numbers"])) {
    const numbers = input["numbers"].filter((n): n is number => typeof n === "number");
    for (let i = 0; i + 1 < numbers.length; i++) {
      const [a, b] = [numbers[i]!, numbers[i + 1]!];
      if (a > b) [numbers[i], numbers[i + 1]] = [b, a];
    }
    return numbers;
  }
  ctx.log(`no idea how to solve this input of task ${ctx.task}`);
  return null;
};
