/**
 * Imports trusted task code (a grader and what it imports) through Node's own loader, with
 * tsx and the task hooks (task-module-hooks.ts) in front of it. The same path runs in the CLI
 * and under a test runner, so a grader behaves the same in both.
 */
import { register } from "node:module";
import { pathToFileURL } from "node:url";
import { MODULE_EXTENSION } from "../kernel/index.js";
import type { TaskHooksData } from "./task-module-hooks.js";

/** The specifier graders import the task API by (README, "Your own task"). */
export const TASK_API_SPECIFIER = "evolve/task";

// Loader hooks belong to the process, not to a module instance (a test runner may load this
// file many times in one process), so the "registered once" mark lives on globalThis.
const REGISTERED = Symbol.for("evolve.task-module-hooks");

// A module that only calls import(): a data: URL is always loaded by Node itself, so the
// import() inside it is Node's, even where a test runner rewrites the import() calls of
// the files it transforms (vitest does, and would resolve `zod` from the task folder).
const NATIVE_IMPORT = "data:text/javascript,export default (url) => import(url);";

async function ensureTaskHooks(): Promise<void> {
  const marks = globalThis as { [REGISTERED]?: boolean };
  if (marks[REGISTERED] === true) return;
  // The CLI in a checkout has registered tsx already; a second registration is harmless, and
  // it is what makes this work where nothing has (the packed package's compiled CLI, tests,
  // scripts run some other way). Loaded here, not at the top: only a command that loads a
  // grader pays for tsx's start-up (tests/architecture/light-commands.test.ts).
  const { register: registerTsx } = await import("tsx/esm/api");
  // Another call may have registered while this one waited for the import.
  if ((globalThis as { [REGISTERED]?: boolean })[REGISTERED] === true) return;
  registerTsx();
  const data: TaskHooksData = {
    aliases: { [TASK_API_SPECIFIER]: new URL(`../task-api/index${MODULE_EXTENSION}`, import.meta.url).href },
    harnessPackages: ["zod"],
    anchor: import.meta.url,
  };
  // The same copy the harness runs: the compiled task API and hooks in the packed package.
  register(new URL(`./task-module-hooks${MODULE_EXTENSION}`, import.meta.url), { data });
  marks[REGISTERED] = true;
}

/** The module namespace of a task file (a grader), loaded with the task hooks in place. */
export async function importTaskModule(path: string): Promise<Record<string, unknown>> {
  await ensureTaskHooks();
  const shim = (await import(NATIVE_IMPORT)) as { default: (url: string) => Promise<Record<string, unknown>> };
  return shim.default(pathToFileURL(path).href);
}
