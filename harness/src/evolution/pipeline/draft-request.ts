/**
 * A meta agent's ctx.evaluate request, parsed as hostile data: which visible instances the
 * draft runs on. Only the visible split is ever looked up; an id that is not a visible
 * instance is refused in the same words whether it is unknown or held-out, so a refusal
 * says nothing about the held-out split either.
 */
import { z } from "zod";
import type { Task, TaskInstance } from "../../evaluation/index.js";

/** Ids a request may list; more is refused before any id is looked at. */
export const MAX_LISTED_IDS = 1_000;
const MAX_ID_CHARS = 200;
/** Ids quoted back in a refusal, and visible ids offered instead. */
const QUOTED_IDS = 5;
const OFFERED_IDS = 20;

/** The request as the contract's EvaluateRequest allows it, and nothing else. */
export const DraftRequest = z.strictObject({
  instances: z
    .union([z.literal("stage1"), z.literal("visible"), z.array(z.string().min(1).max(MAX_ID_CHARS)).min(1).max(MAX_LISTED_IDS)])
    .optional(),
});
export type DraftRequest = z.infer<typeof DraftRequest>;

/** What a request asks to run: the staging of evaluateCandidate, or a subset of the visible split. */
export type DraftPlan =
  | { ok: true; kind: "stage1" | "visible"; subset: null; describe: string }
  | { ok: true; kind: "subset"; subset: readonly TaskInstance[]; describe: string }
  | { ok: false; reason: string; describe: string | null };

function quote(ids: readonly string[], max: number): string {
  const shown = ids.slice(0, max).map((id) => JSON.stringify(id.slice(0, 60)));
  return `${shown.join(", ")}${ids.length > max ? ` (+${ids.length - max} more)` : ""}`;
}

/** Parses `raw` (the agent's request, unchecked) against the task's visible split. */
export function planDraftRequest(raw: unknown, task: Task): DraftPlan {
  const listed = (raw as { instances?: unknown } | null)?.instances;
  if (Array.isArray(listed) && listed.length > MAX_LISTED_IDS) {
    return { ok: false, describe: null, reason: `too many instance ids (${listed.length}); a request lists at most ${MAX_LISTED_IDS}, and the visible split has ${task.visible.length}` };
  }
  const parsed = DraftRequest.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, describe: null, reason: `malformed request: ${z.prettifyError(parsed.error).replace(/\s+/g, " ").slice(0, 400)}; expected { instances?: "stage1" | "visible" | string[] }` };
  }
  const instances = parsed.data.instances ?? "stage1";
  if (instances === "stage1" || instances === "visible") return { ok: true, kind: instances, subset: null, describe: instances };
  const describe = `${instances.length} ids: ${quote(instances, QUOTED_IDS)}`;
  const duplicates = instances.filter((id, i) => instances.indexOf(id) !== i);
  if (duplicates.length > 0) return { ok: false, describe, reason: `instance ids listed more than once: ${quote([...new Set(duplicates)], QUOTED_IDS)}` };
  const byId = new Map(task.visible.map((instance) => [instance.id, instance]));
  const missing = instances.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    const offered = quote(task.visible.map((i) => i.id), OFFERED_IDS);
    return { ok: false, describe, reason: `not visible instance ids: ${quote(missing, QUOTED_IDS)}; the visible instances are ${offered}` };
  }
  return { ok: true, kind: "subset", subset: instances.map((id) => byId.get(id) as TaskInstance), describe };
}
