/** The task folder of a recorded run, wherever the evolve that recorded it lived. */
import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { BUILTIN_TASKS_DIR } from "./run-settings.js";

/**
 * run.json keeps the task's absolute folder. A built-in task's folder lies inside the evolve
 * that ran it, so once that evolve has moved (installed elsewhere, upgraded, another clone)
 * the recorded path is gone and the built-in task of the same name here is meant. A user's
 * task folder is taken as recorded.
 */
export function recordedTaskDir(task: { name: string; dir: string }): string {
  if (existsSync(join(task.dir, "task.json"))) return task.dir;
  const wasBuiltin = basename(task.dir) === task.name && basename(dirname(task.dir)) === "tasks";
  const builtin = resolve(BUILTIN_TASKS_DIR, task.name);
  return wasBuiltin && existsSync(join(builtin, "task.json")) ? builtin : task.dir;
}
