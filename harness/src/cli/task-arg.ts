/** `--task T|DIR` as a folder: a built-in task's name, else a folder (a bare name too). */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { taskDirFor } from "../evolution/run/run-settings.js";

/**
 * A built-in name wins; a bare name that is not one means the folder of that name, so
 * `evolve new task mytask` is followed by `--task mytask` as well as `--task ./mytask`.
 */
export function resolveTaskArg(task: string): string {
  const dir = taskDirFor(task);
  return existsSync(dir) ? dir : resolve(task);
}
