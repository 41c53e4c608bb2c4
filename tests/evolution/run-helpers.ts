/** Helpers for evolution tests: a quiet sink, archive checks, leftover containers of a run. */
import { execFileSync } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { checkLineage, hashDirectory, readEvents, readRun, type GenerationRecord } from "../../harness/src/archive/index.js";
import type { ProgressSink } from "../../harness/src/evolution/index.js";

/** A non-TTY sink that keeps what was written. */
export function memorySink(): ProgressSink & { text(): string } {
  const chunks: string[] = [];
  return { isTTY: false, write: (t) => void chunks.push(t), text: () => chunks.join("") };
}

/** Reads a run back through zod and checks it is whole: no problems, one root, depths, hashes, one selected event per child. */
export async function readConsistentRun(runDir: string, options: { tolerateBadEventLines?: boolean } = {}): Promise<{ generations: GenerationRecord[]; problems: string[] }> {
  const contents = await readRun(runDir);
  const problems = contents.problems.map((p) => `${p.path}: ${p.reason}`);
  problems.push(...checkLineage(contents.generations).map((p) => `${p.path}: ${p.reason}`));
  const events = await readEvents(runDir);
  // A SIGKILL mid-append leaves one partial event line, which the reader reports (by design).
  if (!options.tolerateBadEventLines) problems.push(...events.problems.map((p) => `${p.path}: ${p.reason}`));
  const selected = new Map<string, string>();
  for (const e of events.events) if (e.type === "selected") selected.set(e.generation, e.parent);
  for (const g of contents.generations) {
    if (g.parent !== null && selected.get(g.id) !== g.parent) problems.push(`${g.id}: no selected event naming parent ${g.parent}`);
    if (g.snapshotHash !== null && (await hashDirectory(join(runDir, g.id, "snapshot"))) !== g.snapshotHash) problems.push(`${g.id}: snapshot hash differs`);
  }
  const leftovers = (await readdir(runDir)).filter((n) => n.startsWith(".tmp-"));
  if (leftovers.length > 0) problems.push(`temporaries left: ${leftovers.join(", ")}`);
  return { generations: contents.generations, problems };
}

/** Containers and volumes still labelled with this run (whatever session made them), on the engine `dockerArgs` name (default: the local one). */
export function leftoversOfRun(runId: string, dockerArgs: readonly string[] = []): { containers: number; volumes: number } {
  return leftoversLabelled(`dev.evolve.run=${runId}`, dockerArgs);
}

/** Containers and volumes still labelled with this session, on the engine `dockerArgs` name. */
export function leftoversOfSession(session: string, dockerArgs: readonly string[] = []): { containers: number; volumes: number } {
  return leftoversLabelled(`dev.evolve.session=${session}`, dockerArgs);
}

function leftoversLabelled(label: string, dockerArgs: readonly string[]): { containers: number; volumes: number } {
  const filter = `label=${label}`;
  const count = (args: string[]): number => execFileSync("docker", [...dockerArgs, ...args], { encoding: "utf8" }).split("\n").filter((l) => l.trim() !== "").length;
  return { containers: count(["ps", "-aq", "--filter", filter]), volumes: count(["volume", "ls", "-q", "--filter", filter]) };
}

/** Every file under `dir` (recursively) as text. */
export async function readAllText(dir: string): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.push({ path, text: await readFile(path, "utf8") });
  }
  return out;
}
