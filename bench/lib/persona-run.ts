/**
 * One run of the models bench: the real loop (`startRun`, through runEvolution) with a model
 * zoo persona as the endpoint, read back from its archive: per generation, whether it gave a
 * valid child and from whose edit (the model's, or the offline fallback's), whether it
 * improved on its parent, its tokens and model calls (from its transcript), and the recorded
 * reason of every failure.
 */
import { readFile } from "node:fs/promises";
import { generationPaths, readRunRecord, type GenerationRecord } from "../../harness/src/archive/index.js";
import { parseTranscript } from "../../harness/src/llm/index.js";
import type { SandboxEngine } from "../../sandbox/src/index.js";
import { planEdit, startZooServer, viewOf, type Persona } from "../../tests/support/model-zoo/index.js";
import type { RecordedRequest } from "../../tests/support/scripted-openai-server.js";
import { benchArchiveRoot, removeRoot, runEvolution } from "./run-evolution.js";

/** What one generation amounted to. */
export interface GenerationRow {
  id: string;
  status: "valid" | "invalid" | "duplicate";
  /** The child's edit came from the model (its summary starts "llm"), not the offline fallback. */
  byModel: boolean;
  /**
   * The persona had an edit to write for this generation in some reply. On the task the seed
   * does not know it has one only while the tree lacks a solver (tests/support/model-zoo/edit-plan.ts):
   * a generation without one measures the persona's silence, not the harness.
   */
  offered: boolean;
  improving: boolean;
  tokens: number;
  /** Model calls of the meta agent (HTTP retries of one call count once). */
  calls: number;
  /** The recorded reason when it failed, or when the model gave no applicable edit; "" otherwise. */
  reason: string;
}

export interface PersonaRun {
  persona: string;
  task: string;
  /** What the harness's probe found: the mode it told the meta agents, and why. */
  probe: { mode: string; reason: string; calls: number; tokens: number } | null;
  generations: GenerationRow[];
  wallMs: number;
  /** A harness error that ended the run (the bench's "nothing throws" goal), or null. */
  error: string | null;
}

/** Runs `generations` children of the seed on `task` with `p` as the model. */
export async function personaRun(engine: SandboxEngine, p: Persona, task: { name: string; arg: string }, generations: number, workers: number, seed: number): Promise<PersonaRun> {
  const server = await startZooServer(p);
  const root = await benchArchiveRoot("models");
  const started = performance.now();
  try {
    // The checks get 2 minutes, not 30 s: on a loaded machine a compile timeout would be the machine's failure, not the model's.
    const run = await runEvolution(engine, { task: task.arg, generations, workers, seed, evaluations: 0, out: root, runId: "models", llm: { baseURL: server.baseURL, model: p.name }, checkTimeoutMs: 120_000 });
    const record = await readRunRecord(run.runDir);
    const probe = record.ok && record.value.llmProbe !== undefined ? record.value.llmProbe : null;
    return {
      persona: p.name,
      task: task.name,
      probe: probe === null ? null : { mode: probe.mode, reason: probe.reason, calls: probe.calls, tokens: probe.tokens.prompt + probe.tokens.completion },
      generations: await rows(run.runDir, run.generations, offeredIn(server.chatRequests())),
      wallMs: performance.now() - started,
      error: run.problems.length > 0 ? `archive problems: ${run.problems.join("; ")}` : null,
    };
  } catch (error) {
    return { persona: p.name, task: task.name, probe: null, generations: [], wallMs: performance.now() - started, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await server.close();
    await removeRoot(root);
  }
}

/** Generations for which some request let the persona plan an edit. */
function offeredIn(requests: readonly RecordedRequest[]): Set<string> {
  const offered = new Set<string>();
  for (const request of requests) {
    const view = viewOf(request);
    if (view.generation !== null && !view.probe && planEdit(view) !== null) offered.add(view.generation);
  }
  return offered;
}

async function rows(runDir: string, records: readonly GenerationRecord[], offered: ReadonlySet<string>): Promise<GenerationRow[]> {
  const byId = new Map(records.map((r) => [r.id, r]));
  const out: GenerationRow[] = [];
  for (const r of records) {
    if (r.parent === null) continue;
    const parent = byId.get(r.parent);
    const summary = r.summary ?? "";
    const byModel = summary.startsWith("llm");
    const before = parent?.scores.visible ?? null;
    const improving = r.status.kind === "valid" && r.scores.visible !== null && before !== null && r.scores.visible > before;
    const fallback = /llm gave no applicable edit: (.*)\)$/.exec(summary)?.[1] ?? "";
    const reason = r.status.kind === "invalid" ? `${r.status.stage}: ${r.status.code}: ${r.status.message}` : byModel ? "" : fallback === "" ? "no reason recorded" : fallback;
    out.push({ id: r.id, status: r.status.kind, byModel, offered: offered.has(r.id), improving, tokens: r.tokens.prompt + r.tokens.completion, calls: await modelCalls(runDir, r.id), reason });
  }
  return out;
}

/** The meta agent's model calls, from the generation's transcript. */
async function modelCalls(runDir: string, id: string): Promise<number> {
  const text = await readFile(generationPaths(runDir, id).transcript, "utf8").catch(() => "");
  return parseTranscript(text).entries.filter((e) => e.kind === "llm" && e.attempts > 0).length;
}
