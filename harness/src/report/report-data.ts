/**
 * The data the HTML report embeds, built from the archive. Everything an agent could
 * have influenced (summaries, messages, feedback, patches, file names) stays plain data
 * here: the page only ever puts it into the DOM as text.
 */
import { bestGeneration } from "../selection/index.js";
import { z } from "zod";
import type { GenerationRecord, RunContents } from "../archive/index.js";
import { childrenCounts } from "../archive/index.js";
import { episodeOf, STAGE_LABELS, type InstanceResult } from "../results/index.js";
import type { EpisodeView, NodeView, PackingView, ReportData } from "./report-view.js";
import { bestPath, byId, describeApproval, progressSeries } from "./run-summary.js";
import { describeRace } from "./race-text.js";
import { approvalState } from "../supervision/index.js";
import { capText } from "../text/index.js";

/** Caps that keep a 1,000-generation report a few megabytes. */
export const REPORT_CAPS = {
  /** Failing instances listed per generation. */
  failures: 12,
  /** Characters of one message or feedback line. */
  text: 600,
  /** Bytes of one embedded patch; longer ones are cut at a line and marked. */
  patchBytes: 96 * 1024,
  /** Bytes of all embedded patches together; later ones are left out (evolve diff shows them). */
  totalPatchBytes: 24 * 1024 * 1024,
  /** Circles drawn for one packing. */
  circles: 500,
  /** Bytes of all embedded episodes together (best lineage first); the rest are left out (evolve watch plays them). */
  totalEpisodeBytes: 4 * 1024 * 1024,
} as const;

const Circles = z.array(z.tuple([z.number(), z.number(), z.number()]).refine((c) => c.every(Number.isFinite))).max(REPORT_CAPS.circles);

function cap(text: string, max: number = REPORT_CAPS.text): string {
  return capText(text, max);
}

/** Cuts a patch at a line boundary under the byte cap, saying so. */
export function capPatch(patch: string, maxBytes: number = REPORT_CAPS.patchBytes): string {
  if (Buffer.byteLength(patch) <= maxBytes) return patch;
  let cut = patch.slice(0, maxBytes);
  while (Buffer.byteLength(cut) > maxBytes) cut = cut.slice(0, -1024);
  const lastNewline = cut.lastIndexOf("\n");
  if (lastNewline > 0) cut = cut.slice(0, lastNewline + 1);
  return `${cut}… patch cut at ${Math.round(maxBytes / 1024)} KiB of ${Math.round(Buffer.byteLength(patch) / 1024)} KiB (evolve diff shows all of it)\n`;
}

function bestPacking(g: GenerationRecord): PackingView | null {
  if (g.evaluation === null) return null;
  let best: { instance: InstanceResult; circles: [number, number, number][] } | null = null;
  for (const stage of g.evaluation.stages) {
    for (const instance of stage.instances) {
      const artifact = instance.artifact;
      if (typeof artifact !== "object" || artifact === null || !("circles" in artifact)) continue;
      const circles = Circles.safeParse((artifact as { circles: unknown }).circles);
      if (!circles.success) continue;
      if (best === null || instance.score > best.instance.score) best = { instance, circles: circles.data };
    }
  }
  return best === null ? null : { instance: best.instance.id, split: best.instance.split, score: best.instance.score, circles: best.circles };
}

/** The generation's episode to animate: its best-scoring visible instance's, else held-out's; only ones that read. */
export function bestEpisode(g: GenerationRecord): EpisodeView | null {
  let best: EpisodeView | null = null;
  for (const stage of g.evaluation?.stages ?? []) {
    for (const instance of stage.instances) {
      const found = episodeOf(instance.artifact);
      if (found === null || !found.ok) continue;
      const better = best === null || (instance.split === "visible" && best.split !== "visible") || (instance.split === best.split && instance.score > best.score);
      if (better) best = { instance: cap(instance.id, 80), split: instance.split, score: instance.score, ...found.episode };
    }
  }
  return best;
}

/** What the panel says about how far the evaluation went: a race that stopped, or a held-out split left unscored. */
function evaluationNote(g: GenerationRecord): string | null {
  const race = describeRace(g);
  const skipped = g.evaluation?.heldoutSkipped;
  const parts = [race, skipped === undefined ? null : `held-out not scored: ${skipped}`].filter((p): p is string => p !== null);
  return parts.length === 0 ? null : cap(parts.join("; "));
}

function nodeView(g: GenerationRecord, children: number, diff: NodeView["diff"], now: Date, episode: NodeView["episode"] = null): NodeView {
  const invalid = g.status.kind === "invalid" ? g.status : null;
  const failures = (g.evaluation?.stages ?? []).flatMap((s) =>
    s.instances.filter((i) => i.error !== null || i.score === 0).map((i) => ({ id: cap(i.id, 80), split: i.split, reason: cap(i.error ?? i.feedback) })),
  );
  const timings: Record<string, number> = {};
  for (const [k, v] of Object.entries(g.timings)) if (typeof v === "number") timings[cap(k, 40)] = v;
  return {
    id: g.id,
    parent: g.parent,
    depth: g.depth,
    valid: g.status.kind === "valid",
    duplicateOf: g.status.kind === "duplicate" ? g.status.of : null,
    stage: invalid?.stage ?? null,
    code: invalid?.code ?? null,
    message: invalid === null ? null : cap(invalid.message),
    where: invalid === null || invalid.file === null ? null : cap(`${invalid.file}${invalid.line === null ? "" : `:${invalid.line}`}`, 200),
    visible: g.scores.visible,
    heldout: g.scores.heldout,
    stage1: g.scores.stage1,
    evaluationNote: evaluationNote(g),
    summary: g.summary === null ? null : cap(g.summary),
    costUsd: g.costUsd,
    tokens: g.tokens,
    solve: g.solve === undefined ? null : { calls: g.solve.calls, prompt: g.solve.tokens.prompt, completion: g.solve.tokens.completion, costUsd: g.solve.costUsd },
    timings,
    changed: g.changedFiles.slice(0, 50).map((f) => ({ path: cap(f.path, 200), change: f.change, additions: f.additions, deletions: f.deletions })),
    stages: (g.evaluation?.stages ?? []).map((s) => ({
      stage: s.stage,
      label: STAGE_LABELS[s.stage],
      score: s.score,
      instances: s.instances.length,
      failed: s.instances.filter((i) => i.error !== null || i.score === 0).length,
      durationMs: s.durationMs,
    })),
    failures: failures.slice(0, REPORT_CAPS.failures),
    packing: bestPacking(g),
    episode,
    model: g.model,
    createdAt: g.createdAt,
    children,
    diff,
    ...approvalView(g, now),
  };
}

function approvalView(g: GenerationRecord, now: Date): Pick<NodeView, "approval" | "approvalText"> {
  const state = approvalState(g, now.getTime());
  const text = describeApproval(g, now.getTime());
  if (state === "not_required" || text === null) return { approval: null, approvalText: null };
  return { approval: state, approvalText: cap(`${text} (asked because ${g.approval?.reasons.join("; ") ?? ""})`) };
}

/** Builds the report data; `patches` maps ids to patch text (absent: unreadable). */
export function buildReportData(contents: RunContents, patches: ReadonlyMap<string, string | null>, now: Date): { data: ReportData; diffs: Map<string, string> } {
  const gens = byId(contents.generations);
  const counts = childrenCounts(gens);
  const diffs = new Map<string, string>();
  let budget: number = REPORT_CAPS.totalPatchBytes;
  // The best lineage's patches go in first: they are the ones people open.
  const path = bestPath(gens);
  const onPath = new Set(path);
  const order = [...path, ...gens.map((g) => g.id).filter((id) => !onPath.has(id))];
  const state = new Map<string, NodeView["diff"]>();
  for (const id of order) {
    const patch = patches.get(id);
    if (patch === undefined || patch === null) {
      state.set(id, "missing");
      continue;
    }
    const capped = capPatch(patch);
    const bytes = Buffer.byteLength(capped);
    if (bytes > budget) {
      state.set(id, "omitted");
      continue;
    }
    budget -= bytes;
    diffs.set(id, capped);
    state.set(id, "embedded");
  }
  const episodes = embeddedEpisodes(gens, order);
  const run = contents.run;
  const best = bestGeneration(gens);
  const data: ReportData = {
    run: {
      id: run?.id ?? contents.dir.split(/[/\\]/).filter((p) => p !== "").at(-1) ?? "run",
      task: run?.config.task.name ?? null,
      model: run === null ? null : (run.config.model ?? "offline"),
      status: run?.status ?? null,
      seed: run?.config.seed ?? null,
      // An arena run selects by its own tournaments, not by the run's selection strategy.
      selection: run?.config.arena === undefined ? (run?.config.selection ?? null) : `arena (${run.config.arena.mode}, ${run.config.arena.rounds} rounds)`,
      createdAt: run?.createdAt ?? null,
      from: run?.from === undefined || run === null ? null : `${run.from.run}/${run.from.generation}`,
      policy: run?.policy !== undefined || contents.generations.some((g) => g.approval !== undefined),
    },
    best: best?.id ?? null,
    bestPath: path,
    nodes: gens.map((g) => nodeView(g, counts.get(g.id) ?? 0, state.get(g.id) ?? "missing", now, episodes.get(g.id) ?? null)),
    series: progressSeries(gens),
    problems: contents.problems.map((p) => ({ path: cap(p.path, 300), reason: cap(p.reason) })),
    generatedAt: now.toISOString(),
  };
  return { data, diffs };
}

/** Each generation's episode, in `order` (best lineage first) until the page's episode budget is spent. */
function embeddedEpisodes(gens: readonly GenerationRecord[], order: readonly string[]): Map<string, NodeView["episode"]> {
  const byIdMap = new Map(gens.map((g) => [g.id, g]));
  const out = new Map<string, NodeView["episode"]>();
  let budget: number = REPORT_CAPS.totalEpisodeBytes;
  for (const id of order) {
    const g = byIdMap.get(id);
    const episode = g === undefined ? null : bestEpisode(g);
    if (episode === null) continue;
    const bytes = JSON.stringify(episode.frames).length;
    if (bytes > budget) {
      out.set(id, "omitted");
      continue;
    }
    budget -= bytes;
    out.set(id, episode);
  }
  return out;
}
