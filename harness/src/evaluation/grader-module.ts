/**
 * A task's grader.ts as a Grader, or one line saying what is wrong with it and what to do.
 * Graders are trusted host code, but they are written by users: a typo must read as advice,
 * never as a bare module-resolution error or a stack trace.
 */
import { relative } from "node:path";
import { importTaskModule, TASK_API_SPECIFIER } from "./import-task-module.js";
import type { Grader } from "./grader.js";
import { checkOracleShape, type OracleShape } from "./oracle-shape.js";
import { oneLine } from "../text/index.js";

export const GRADER_FILE = "grader.ts";
/** A grader whose top-level code has not settled by then (an await that never ends) is refused. */
const LOAD_TIMEOUT_MS = 30_000;
const LINE_CAP = 300;

const ALLOWED_IMPORTS = `${TASK_API_SPECIFIER}, zod, node: built-ins, files of the task folder, and packages in a node_modules beside it`;
const SHAPE_HINT = `export const grader = defineGrader({ instanceSchema, grade }) with defineGrader from "${TASK_API_SPECIFIER}"`;

export type GraderShape = { ok: true; grader: Grader } | { ok: false; problem: string };
/** A loaded grader, with its optional oracle checked apart (a bad oracle is one more problem, not a bad grader). */
export type GraderLoad = { ok: true; grader: Grader; oracle: OracleShape } | { ok: false; problem: string };


/** Paths inside the task folder as the user wrote them, others as they are. */
function shorten(text: string, taskDir: string): string {
  return text.replaceAll(/(?:file:\/\/)?(\/[^\s'"():]+)/g, (whole, path: string) =>
    path.startsWith(`${taskDir}/`) ? relative(taskDir, path) : whole,
  );
}

/** The first place in the task folder a stack names ("helpers.ts:12"), or null. */
function whereInTask(stack: string | undefined, taskDir: string): string | null {
  for (const line of (stack ?? "").split("\n").slice(1)) {
    const match = /(?:file:\/\/)?(\/[^\s()]+?):(\d+):\d+\)?\s*$/.exec(line);
    if (match?.[1]?.startsWith(`${taskDir}/`)) return `${relative(taskDir, match[1])}:${match[2]}`;
  }
  return null;
}

/** Why importing the grader failed, in one line with what to do. */
export function describeLoadFailure(cause: unknown, taskDir: string): string {
  const error: Error & { code?: unknown } = cause instanceof Error ? cause : new Error(String(cause));
  const message = shorten(error.message, taskDir);
  const missingPackage = /Cannot find package '([^']+)'/.exec(error.message);
  if (error.code === "ERR_MODULE_NOT_FOUND" && missingPackage)
    return oneLine(`${GRADER_FILE}: cannot load: package '${missingPackage[1]}' is not available (${message}); a grader may import ${ALLOWED_IMPORTS}`, LINE_CAP);
  if (error.code === "ERR_MODULE_NOT_FOUND" || error.code === "ERR_UNSUPPORTED_DIR_IMPORT")
    return oneLine(`${GRADER_FILE}: cannot load: ${message}; check the import's path (a .ts file is imported as ./name.js)`, LINE_CAP);
  if (error.name === "TransformError")
    return oneLine(`${GRADER_FILE}: cannot load: ${message.replace(/^Transform failed with \d+ errors?:\s*/, "").replace("ERROR: ", "syntax error: ")}; fix the TypeScript there`, LINE_CAP);
  if (error.name === "SyntaxError")
    return oneLine(`${GRADER_FILE}: cannot load: ${message}; see the task API in the README ("Your own task")`, LINE_CAP);
  const where = whereInTask(error.stack, taskDir);
  return oneLine(
    `${GRADER_FILE}: threw while loading${where === null ? "" : ` at ${where}`}: ${error.name}: ${message}; top-level code must not throw (do the work inside grade())`,
    LINE_CAP,
  );
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

/** Whether the module's `grader` export has the Grader shape, or what is missing. */
export function checkGraderShape(mod: Record<string, unknown>): GraderShape {
  if (!("grader" in mod)) {
    const names = Object.keys(mod);
    return { ok: false, problem: `${GRADER_FILE}: exports no \`grader\` (it exports ${names.length === 0 ? "nothing" : names.join(", ")}); ${SHAPE_HINT}` };
  }
  const candidate = mod["grader"];
  if (typeof candidate !== "object" || candidate === null)
    return { ok: false, problem: `${GRADER_FILE}: \`grader\` is ${kindOf(candidate)}, not an object; ${SHAPE_HINT}` };
  const { instanceSchema, grade } = candidate as Partial<Record<keyof Grader, unknown>>;
  if (typeof (instanceSchema as { safeParse?: unknown } | undefined)?.safeParse !== "function")
    return {
      ok: false,
      problem: `${GRADER_FILE}: \`grader.instanceSchema\` is ${instanceSchema === undefined ? "missing" : "not a zod schema"}; give it the zod schema of one instance, e.g. z.object({ id: z.string(), ... })`,
    };
  if (typeof grade !== "function")
    return {
      ok: false,
      problem: `${GRADER_FILE}: \`grader.grade\` is ${grade === undefined ? "missing" : "not a function"}; give it async grade(instance, solve, ctx) returning { score, value, feedback }`,
    };
  return { ok: true, grader: candidate as Grader };
}

/** Imports `<taskDir>/grader.ts` and checks what it exports. */
export async function loadGraderModule(path: string, taskDir: string): Promise<GraderLoad> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((settle) => {
    timer = setTimeout(() => settle("timeout"), LOAD_TIMEOUT_MS);
  });
  const loaded = importTaskModule(path).then(
    (mod) => ({ mod }),
    (cause: unknown) => ({ cause }),
  );
  const outcome = await Promise.race([loaded, timedOut]).finally(() => clearTimeout(timer));
  if (outcome === "timeout")
    return { ok: false, problem: `${GRADER_FILE}: did not finish loading within ${LOAD_TIMEOUT_MS / 1000} s; its top-level code must not wait on anything that never ends` };
  if ("cause" in outcome) return { ok: false, problem: describeLoadFailure(outcome.cause, taskDir) };
  const shape = checkGraderShape(outcome.mod);
  return shape.ok ? { ...shape, oracle: checkOracleShape(outcome.mod) } : shape;
}
