/**
 * Hostile candidates as emitted JS (written here, run only in containers): a task agent
 * whose `solve` answers sums and, for an instance with `attack: name`, runs that attack.
 * Host binaries (with the shared libraries they link) can ride along in the build, for
 * attacks that need a real process to exec (fork bombs, unshare, mount).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir } from "node:fs/promises";
import { basename, join } from "node:path";
import type { EvaluationResult, InstanceResult } from "../../../harness/src/results/index.js";
import { evaluateCandidate } from "../../../harness/src/evaluation/index.js";
import type { SandboxLimits } from "../../../sandbox/src/index.js";
import { writeJsBuild } from "../../support/js-build.js";
import type { CaseContext } from "./security-env.js";

/**
 * A solve module: `attacks` is JS source of an object literal mapping attack names to
 * async functions `(input, ctx) => report`; `prelude` runs at module load.
 */
export function attackSolve(attacks: string, prelude = ""): string {
  return `import * as fs from "node:fs";
import * as os from "node:os";
import * as net from "node:net";
import * as dns from "node:dns";
import * as child from "node:child_process";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
${prelude}
const ATTACKS = ${attacks};
export async function solve(input, ctx) {
  if (typeof input.attack === "string") {
    const report = await ATTACKS[input.attack](input, ctx);
    return { sum: input.a + input.b, report: report ?? null };
  }
  return { sum: input.a + input.b };
}
`;
}

function which(name: string): string {
  for (const dir of (process.env["PATH"] ?? "/usr/bin:/bin").split(":")) {
    const path = join(dir, name);
    if (existsSync(path)) return path;
  }
  throw new Error(`no ${name} on the host's PATH`);
}

/** Copies host binaries to build/bin and the libraries they link to build/lib. */
export async function addHostBinaries(buildDir: string, names: readonly string[]): Promise<void> {
  await mkdir(join(buildDir, "bin"), { recursive: true });
  await mkdir(join(buildDir, "lib"), { recursive: true });
  for (const name of names) {
    const path = which(name);
    await copyFile(path, join(buildDir, "bin", name));
    const ldd = execFileSync("ldd", [path], { encoding: "utf8" });
    for (const match of ldd.matchAll(/=>\s*(\/\S+)/g)) {
      const lib = match[1];
      if (lib !== undefined) await copyFile(lib, join(buildDir, "lib", basename(lib)));
    }
  }
}

export async function writeCandidate(task: string, extra: Record<string, string> = {}, binaries: readonly string[] = []): Promise<string> {
  const dir = await writeJsBuild({ task, extra });
  if (binaries.length > 0) await addHostBinaries(dir, binaries);
  return dir;
}

export interface AttackRun {
  result: EvaluationResult;
  byId(id: string): InstanceResult;
  containMs: number;
}

/**
 * Evaluates `buildDir` on the suite's task with one instance per attack, followed by two
 * honest instances: those must still score 1 (the evaluation goes on after the attack).
 */
export async function evaluateAttacks(
  c: CaseContext,
  buildDir: string,
  attacks: readonly string[],
  options: { instanceTimeoutMs?: number; limits?: Partial<SandboxLimits> } = {},
): Promise<AttackRun> {
  const base = c.env.secTask;
  const visible = [...attacks.map((attack, i) => ({ id: attack, a: i, b: 100, attack })), ...base.visible];
  const task = { ...base, visible, manifest: { ...base.manifest, stages: { stage1Size: visible.length, threshold: 0 } } };
  const started = Date.now();
  const result = await evaluateCandidate({
    engine: c.env.engine,
    image: c.env.image,
    task,
    buildDir,
    labels: c.labels,
    runtime: c.runtime,
    seed: 1,
    visible: "stage1",
    instanceTimeoutMs: options.instanceTimeoutMs ?? 5_000,
    maxRestarts: attacks.length + 1,
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const all = result.stages.flatMap((s) => s.instances);
  const byId = (id: string): InstanceResult => {
    const found = all.find((r) => r.id === id);
    if (found === undefined) throw new Error(`no result for ${id}`);
    return found;
  };
  for (const honest of base.visible) {
    const r = byId(honest.id);
    if (r.score !== 1) throw new Error(`the evaluation did not go on after the attack: ${honest.id} scored ${r.score} (${r.error ?? r.feedback})`);
  }
  return { result, byId, containMs: Date.now() - started };
}
