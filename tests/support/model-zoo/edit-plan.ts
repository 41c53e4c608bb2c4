/**
 * What a scripted model decides to change, from what the request shows it: on a task the
 * agent knows, one numeric knob of the task's solver moved within its annotated range (a
 * modest move derived from the generation id, so every child is a new tree); on a task it does not
 * know, a new solver file and its case in task/index.ts. Personas differ in how they write
 * the change (formats.ts), never in what it is, so the bench compares habits, not ideas.
 */
import type { RequestView } from "./request-view.js";

/** One exact replacement in one file (`before` null: the file is new and `replace` is all of it). */
export interface FileChange {
  path: string;
  before: string | null;
  search: string;
  replace: string;
}

export interface Plan {
  summary: string;
  changes: FileChange[];
}

const KNOB = /^(\s*)(\w+): (-?\d+(?:\.\d+)?)(,\s*\/\/ evolve:range (-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?)( int)?.*)$/;

/** The change to make, or null when the request shows no file to change. */
export function planEdit(view: RequestView): Plan | null {
  const task = view.task;
  if (task === null) return null;
  const solverPath = `task/${task}.ts`;
  const solver = view.files.get(solverPath);
  if (solver !== undefined) return knobPlan(solverPath, solver, generationNumber(view));
  const index = view.files.get("task/index.ts");
  if (index !== undefined && !view.paths.includes(solverPath)) return newSolverPlan(task, view.description, index);
  return null;
}

function generationNumber(view: RequestView): number {
  return Number(view.generation?.slice(1) ?? 1);
}

/** Moves one knob (which one, and where to, follow from the generation number). */
function knobPlan(path: string, text: string, generation: number): Plan | null {
  const knobs = text.split("\n").flatMap((line) => {
    const m = KNOB.exec(line);
    return m === null ? [] : [{ line, name: m[2] ?? "", raw: m[3] ?? "", value: Number(m[3]), low: Number(m[5]), high: Number(m[6]), int: m[7] !== undefined }];
  });
  if (knobs.length === 0) return null;
  const knob = knobs[generation % knobs.length];
  if (knob === undefined) return null;
  // A modest move, as a model tuning a parameter would make: a factor of the value, kept in range.
  const factors = [1.25, 0.8, 1.5, 0.67, 1.1, 0.9];
  let next = knob.value;
  for (let k = 0; next === knob.value && k < factors.length; k++) {
    const factor = factors[(generation + k) % factors.length] ?? 1;
    const raw = knob.value === 0 ? knob.low + (knob.high - knob.low) * 0.1 : knob.value * factor;
    const clamped = Math.min(knob.high, Math.max(knob.low, raw));
    next = knob.int ? Math.round(clamped) : Number(clamped.toPrecision(3));
  }
  if (next === knob.value && knob.int) next = knob.value + 1 <= knob.high ? knob.value + 1 : knob.value - 1;
  if (next === knob.value) return null;
  const replace = knob.line.replace(`${knob.name}: ${knob.raw}`, () => `${knob.name}: ${next}`);
  return { summary: `${knob.name} ${knob.value} → ${next} in ${path}`, changes: [{ path, before: text, search: knob.line, replace }] };
}

/** A solver for a task the agent does not know, and its case in task/index.ts. */
function newSolverPlan(task: string, description: string, index: string): Plan | null {
  const fn = `solve${task.split(/[^A-Za-z0-9]+/).map((w) => (w[0] ?? "").toUpperCase() + w.slice(1)).join("")}`;
  const lastImport = index.split("\n").filter((l) => l.startsWith("import ")).at(-1);
  const fallthrough = index.split("\n").find((l) => l.trim() === "default:");
  if (lastImport === undefined || fallthrough === undefined) return null;
  const indent = fallthrough.slice(0, fallthrough.indexOf("default:"));
  const afterImport = `${lastImport}\nimport { ${fn} } from "./${task}.js";`;
  const withCase = `${indent}case "${task}":\n${indent}  return ${fn}(input);\n${fallthrough}`;
  const indexAfterImport = index.replace(lastImport, () => afterImport);
  return {
    summary: `a solver for ${task}, which the agent did not know`,
    changes: [
      { path: `task/${task}.ts`, before: null, search: "", replace: solverSource(task, fn, description) },
      { path: "task/index.ts", before: index, search: lastImport, replace: afterImport },
      { path: "task/index.ts", before: indexAfterImport, search: fallthrough, replace: withCase },
    ],
  };
}

/** What a model writes from the task's description: sorting when it asks for it, else the input back. */
function solverSource(task: string, fn: string, description: string): string {
  const sorts = /\bsort/i.test(description) && /numbers/.test(description);
  const body = sorts
    ? [
        "  const numbers = typeof input === \"object\" && input !== null && !Array.isArray(input) ? input[\"numbers\"] : null;",
        "  if (!Array.isArray(numbers)) return [];",
        "  return numbers.filter((n): n is number => typeof n === \"number\").sort((a, b) => a - b);",
      ]
    : ["  return input;"];
  return [`/** The ${task} task, solved from its description. */`, 'import type { Json } from "@evolve/contract";', "", `export function ${fn}(input: Json): Json {`, ...body, "}", ""].join("\n");
}

/** Each changed file's text after the plan (for personas that write whole files or diffs). */
export function filesAfter(plan: Plan): Map<string, { before: string | null; after: string }> {
  const out = new Map<string, { before: string | null; after: string }>();
  for (const change of plan.changes) {
    const current = out.get(change.path);
    const base = current?.after ?? change.before ?? "";
    const after = change.before === null && current === undefined ? change.replace : base.replace(change.search, () => change.replace);
    out.set(change.path, { before: current?.before ?? change.before, after });
  }
  return out;
}
