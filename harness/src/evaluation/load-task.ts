/** Loads a task folder: manifest, both splits and the trusted grader, all checked at once. */
import { readFile, stat } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { EvolveError } from "../../../sandbox/src/errors.js";
import { TaskManifest } from "./task-manifest.js";
import type { Grader, TaskInstance } from "./grader.js";

/** A loaded task: everything the evaluation needs. */
export interface Task {
  readonly dir: string;
  readonly manifest: TaskManifest;
  readonly visible: readonly TaskInstance[];
  readonly heldout: readonly TaskInstance[];
  readonly grader: Grader;
}

const GRADER_FILE = "grader.ts";

async function readJson(path: string, problems: string[]): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    problems.push(`${basename(path)}: cannot read (${(cause as Error).message})`);
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    problems.push(`${basename(path)}: not JSON (${(cause as Error).message})`);
    return undefined;
  }
}

async function importGrader(dir: string, problems: string[]): Promise<Grader | null> {
  const path = join(dir, GRADER_FILE);
  try {
    await stat(path);
  } catch {
    problems.push(`${GRADER_FILE}: missing`);
    return null;
  }
  let mod: Record<string, unknown>;
  try {
    // Graders are trusted host code that ships with the harness (never agent code).
    mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (cause) {
    problems.push(`${GRADER_FILE}: failed to load (${(cause as Error).message})`);
    return null;
  }
  const candidate = mod["grader"] as Partial<Grader> | undefined;
  if (
    candidate === undefined ||
    typeof candidate !== "object" ||
    typeof candidate.grade !== "function" ||
    typeof (candidate.instanceSchema as { safeParse?: unknown } | undefined)?.safeParse !== "function"
  ) {
    problems.push(`${GRADER_FILE}: must export \`grader\` with \`instanceSchema\` (zod) and \`grade\``);
    return null;
  }
  return candidate as Grader;
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
  raw.forEach((item: unknown, index) => {
    if (grader === null) {
      const id = (item as { id?: unknown } | null)?.id;
      if (typeof id !== "string" || id === "") problems.push(`${file}[${index}]: missing string id`);
      else out.push({ id });
      return;
    }
    const parsed = grader.instanceSchema.safeParse(item);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
      problems.push(`${file}[${index}]: ${issues.join("; ")}`);
      return;
    }
    if (typeof parsed.data.id !== "string" || parsed.data.id === "") {
      problems.push(`${file}[${index}]: missing string id`);
      return;
    }
    out.push(parsed.data);
  });
  return out;
}

/** Parses tasks/<name>/ and throws one EvolveError("invalid_task") listing every problem. */
export async function loadTask(dir: string): Promise<Task> {
  const root = resolve(dir);
  const problems: string[] = [];
  const rawManifest = await readJson(join(root, "task.json"), problems);
  let manifest: TaskManifest | null = null;
  if (rawManifest !== undefined) {
    const parsed = TaskManifest.safeParse(rawManifest);
    if (parsed.success) manifest = parsed.data;
    else
      for (const issue of parsed.error.issues)
        problems.push(`task.json: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  if (manifest !== null && manifest.name !== basename(root))
    problems.push(`task.json: name "${manifest.name}" differs from the folder name "${basename(root)}"`);

  const grader = await importGrader(root, problems);
  const visible = parseSplit("visible.json", await readJson(join(root, "visible.json"), problems), grader, problems);
  const heldout = parseSplit("heldout.json", await readJson(join(root, "heldout.json"), problems), grader, problems);

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
  return { dir: root, manifest, visible, heldout, grader };
}
