/**
 * What the in-memory engine knows of its sandboxes when it is not the process that made them:
 * each sandbox's folder holds a record (its labels, the process that owns it, its own pid),
 * the twin of Docker's labels on a container. Counting and sweeping read these records, so a
 * test process that died leaves nothing the next sweep does not find.
 */
import { readdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { SandboxLabels, SweepResult } from "../port/index.js";

const RECORD_FILE = "sandbox.json";

export const SandboxRecord = z.object({
  labels: z.object({
    session: z.string(),
    run: z.string().optional(),
    generation: z.string().optional(),
    phase: z.string().optional(),
  }),
  /** The process whose engine made the sandbox: when it is dead, so is the session. */
  owner: z.number().int().positive(),
  /** The sandbox's process (the leader of its group), once started. */
  pid: z.number().int().positive().nullable(),
});
export type SandboxRecord = z.infer<typeof SandboxRecord>;

export function newRecord(labels: SandboxLabels): SandboxRecord {
  return { labels: { ...labels }, owner: process.pid, pid: null };
}

export async function writeSandboxRecord(dir: string, record: SandboxRecord): Promise<void> {
  await writeFile(join(dir, RECORD_FILE), JSON.stringify(record));
}

interface Found {
  dir: string;
  /** Null: no readable record (a folder being made, or a damaged one). */
  record: SandboxRecord | null;
}

/** Every sandbox folder under the engine's root, across stages. */
async function findSandboxes(root: string): Promise<Found[]> {
  const found: Found[] = [];
  const stages = await readdir(root).catch(() => [] as string[]);
  for (const stage of stages.filter((name) => !name.startsWith("."))) {
    const sandboxes = join(root, stage, "sandboxes");
    for (const name of await readdir(sandboxes).catch(() => [] as string[])) {
      const dir = join(sandboxes, name);
      const text = await readFile(join(dir, RECORD_FILE), "utf8").catch(() => null);
      let record: SandboxRecord | null = null;
      try {
        record = text === null ? null : SandboxRecord.parse(JSON.parse(text));
      } catch {
        record = null;
      }
      found.push({ dir, record });
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Counts the sandboxes of `session` (or all): each is one process and one work folder, Docker's container and volume. */
export async function countSandboxes(root: string, session?: string): Promise<SweepResult> {
  const found = await findSandboxes(root);
  const n = found.filter((f) => session === undefined || f.record?.labels.session === session).length;
  return { containers: n, volumes: n };
}

/**
 * Removes sandboxes as DockerEngine.sweep removes containers: those of `session`, all with
 * `all`, else those whose owner process is dead. A process still running is killed only
 * when it is provably the sandbox's (its working folder is the sandbox's work folder), so a
 * recorded pid that now names another process is left alone.
 */
export async function sweepSandboxes(root: string, options: { all?: boolean; session?: string }): Promise<SweepResult> {
  let removed = 0;
  for (const { dir, record } of await findSandboxes(root)) {
    if (options.session !== undefined && record?.labels.session !== options.session) continue;
    if (!options.all && options.session === undefined && (record === null || alive(record.owner))) continue;
    if (record?.pid) await killIfOurs(record.pid, join(dir, "work"));
    await rm(dir, { recursive: true, force: true, maxRetries: 3 }).then(() => removed++, () => undefined);
  }
  return { containers: removed, volumes: removed };
}

async function killIfOurs(pid: number, workDir: string): Promise<void> {
  const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => null);
  if (cwd !== workDir) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}
