/** Loads a task folder: manifest, both splits and the trusted grader, all checked at once. */
import { stat } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { z } from "zod";
import { EvolveError, readJson, zodIssueLines, zodIssues } from "../kernel/index.js";
import { TaskManifest } from "./task-manifest.js";
import type { Grader, TaskInstance } from "./grader.js";
import { GRADER_FILE, loadGraderModule } from "./grader-module.js";
import type { Oracle } from "./oracle.js";

/** A loaded task: everything the evaluation needs. */
export interface Task {
  readonly dir: string;
  readonly manifest: TaskManifest;
  readonly visible: readonly TaskInstance[];
  readonly heldout: readonly TaskInstance[];
  readonly grader: Grader;
  /** The grader module's optional `oracle` export (arena runs need one); null when it has none. */
  readonly oracle: Oracle | null;
}

/** A task file as JSON (its shape is checked after), or undefined with the problem noted. */
async function readTaskJson(path: string, problems: string[]): Promise<unknown> {
  const read = await readJson(z.unknown(), path);
  if (read.ok) return read.value;
  problems.push(`${basename(path)}: ${read.problem === "not_json" || read.problem === "empty" ? "not JSON" : "cannot read"} (${read.reason})`);
  return undefined;
}

async function importGrader(dir: string, problems: string[]): Promise<{ grader: Grader; oracle: Oracle | null } | null> {
  const path = join(dir, GRADER_FILE);
  const info = await stat(path).catch(() => null);
  if (info === null || !info.isFile()) {
    problems.push(`${GRADER_FILE}: missing; \`evolve new task DIR\` writes a commented one to start from`);
    return null;
  }
  // Graders are trusted host code chosen by the user (never agent code).
  const loaded = await loadGraderModule(path, dir);
  if (!loaded.ok) {
    problems.push(loaded.problem);
    return null;
  }
  if (!loaded.oracle.ok) problems.push(loaded.oracle.problem);
  return { grader: loaded.grader, oracle: loaded.oracle.ok ? loaded.oracle.oracle : null };
}

/** Instances of one split that fail the schema are listed up to this many, then counted. */
const SCHEMA_FAILURES_LISTED = 5;

function instanceLabel(file: string, index: number, item: unknown): string {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === "string" && id !== "" ? `${file}[${index}] (id ${JSON.stringify(id).slice(0, 60)})` : `${file}[${index}]`;
}

/** Why an instance does not parse, in one line; a throwing schema is the grader's fault, named so. */
function schemaProblem(grader: Grader, item: unknown): { data: TaskInstance } | { problem: string } {
  let parsed;
  try {
    parsed = grader.instanceSchema.safeParse(item);
  } catch (cause) {
    return { problem: `grader.instanceSchema threw (${cause instanceof Error ? cause.message : String(cause)})` };
  }
  if (!parsed.success)
    return { problem: zodIssues(parsed.error) };
  if (typeof parsed.data.id !== "string" || parsed.data.id === "") return { problem: "missing string id" };
  return { data: parsed.data };
}

function parseSplit(
  file: string,
  raw: unknown,
  grader: Grader | null,
  problems: string[],
): TaskInstance[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push(`${file}: must be a JSON array of instances`);
    return [];
  }
  if (raw.length === 0) problems.push(`${file}: has no instances`);
  const out: TaskInstance[] = [];
  let failing = 0;
  raw.forEach((item: unknown, index) => {
    if (grader === null) {
      const id = (item as { id?: unknown } | null)?.id;
      if (typeof id !== "string" || id === "") problems.push(`${file}[${index}]: missing string id`);
      else out.push({ id });
      return;
    }
    const result = schemaProblem(grader, item);
    if ("data" in result) {
      out.push(result.data);
      return;
    }
    failing += 1;
    if (failing <= SCHEMA_FAILURES_LISTED)
      problems.push(`${instanceLabel(file, index, item)}: ${result.problem}; every instance must match grader.instanceSchema`.slice(0, 400));
  });
  if (failing > SCHEMA_FAILURES_LISTED)
    problems.push(`${file}: ${failing - SCHEMA_FAILURES_LISTED} more instances do not match grader.instanceSchema`);
  return out;
}

/** Parses tasks/<name>/ and throws one EvolveError("invalid_task") listing every problem. */
export async function loadTask(dir: string): Promise<Task> {
  const root = resolve(dir);
  const problems: string[] = [];
  const rawManifest = await readTaskJson(join(root, "task.json"), problems);
  let manifest: TaskManifest | null = null;
  if (rawManifest !== undefined) {
    const parsed = TaskManifest.safeParse(rawManifest);
    if (parsed.success) manifest = parsed.data;
    // One line per field, as `evolve check` has always listed them.
    else for (const issue of zodIssueLines(parsed.error)) problems.push(`task.json: ${issue}`);
  }
  if (manifest !== null && manifest.name !== basename(root))
    problems.push(`task.json: name "${manifest.name}" differs from the folder name "${basename(root)}"`);

  const imported = await importGrader(root, problems);
  const grader = imported?.grader ?? null;
  const visible = parseSplit("visible.json", await readTaskJson(join(root, "visible.json"), problems), grader, problems);
  const heldout = parseSplit("heldout.json", await readTaskJson(join(root, "heldout.json"), problems), grader, problems);

  const seen = new Map<string, string>();
  for (const [file, split] of [["visible.json", visible], ["heldout.json", heldout]] as const)
    for (const { id } of split) {
      const first = seen.get(id);
      if (first !== undefined) problems.push(`${file}: duplicate instance id "${id}" (also in ${first})`);
      else seen.set(id, file);
    }
  if (manifest !== null && visible.length > 0 && manifest.stages.stage1Size > visible.length)
    problems.push(
      `task.json: stages.stage1Size ${manifest.stages.stage1Size} exceeds the ${visible.length} visible instances`,
    );

  if (problems.length > 0 || manifest === null || grader === null)
    throw new EvolveError("invalid_task", `task ${root} is invalid:\n- ${problems.join("\n- ")}`, {
      hint: "fix every listed problem in the task folder",
    });
  return { dir: root, manifest, visible, heldout, grader, oracle: imported?.oracle ?? null };
}
