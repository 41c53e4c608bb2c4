/**
 * Part 2, sandbox tax: the same evaluation (the seed's circle-packing build, a fixed set of
 * visible instances of about 5 s of compute, the real grader and session code) in our
 * hardened container vs as a bare local child process, interleaved in one run.
 *
 * Trust boundary: the bare side runs agent code on the host. It is allowed here only
 * because that code is the repository's own seed agent, unmodified (checked against git
 * HEAD before anything runs), i.e. trusted code written by us; no archived, child or
 * model-written agent is ever run this way. The child process gets an empty environment.
 *
 *   npx tsx bench/sandbox-tax.ts [options]   (the options: the checkArgs line below; --help prints it)
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { evaluateCandidate, loadTask, type Task } from "../harness/src/evaluation/index.js";
import { createValidator } from "../harness/src/validation/index.js";
import { connectEngines, LOCAL_ENGINE, newSessionId, type SandboxEngine } from "../sandbox/src/index.js";
import { argInt, checkArgs, load1 } from "./lib/args.js";
import { bareEngine } from "./lib/bare-engine.js";
import { percentile, saveResults, table } from "./lib/stats.js";

checkArgs("npx tsx bench/sandbox-tax.ts [--rounds 5] [--target-ms 5000] [--pool 0] [--milli-cpus 0]");

const REPO = resolve(import.meta.dirname, "..");
const SEED = join(REPO, "seed-agent");
const rounds = argInt("rounds", 5);
const targetMs = argInt("target-ms", 5000);
const pool = argInt("pool", 0);
/** Override of the container's CPU quota in milli-CPUs (0: the harness default, DEFAULT_LIMITS). */
const milliCpus = argInt("milli-cpus", 0);
const limits = milliCpus > 0 ? { limits: { nanoCpus: milliCpus * 1_000_000 } } : {};
const TRUST_NOTE =
  "The bare-process side runs agent code on the host. It is the repository's own seed agent, unmodified (checked against git HEAD), " +
  "i.e. trusted code; it runs in a separate child process with an empty environment; no archived or model-written agent is ever run on the host.";

function seedIsPristine(): boolean {
  const changed = execFileSync("git", ["status", "--porcelain", "--", "seed-agent"], { cwd: REPO, encoding: "utf8" });
  return changed.trim() === "";
}

/**
 * Why a loaded shared host can inflate the tax: under cgroup v1 every container sits in the
 * one "docker" cpu cgroup, whose cpu.shares (1024 by default) weigh as much as ONE
 * root-level host task, so with many busy host processes all containers together get a small
 * slice. Recorded with the figures so they can be read in that light.
 */
function cpuContext(): { cgroupV1DockerShares: number | null; runningContainers: number } {
  const file = "/sys/fs/cgroup/cpu/docker/cpu.shares";
  const shares = existsSync(file) ? Number(readFileSync(file, "utf8").trim()) : null;
  const running = execFileSync("docker", ["ps", "-q"], { encoding: "utf8" }).split("\n").filter((l) => l.trim() !== "").length;
  return { cgroupV1DockerShares: shares, runningContainers: running };
}

async function evaluate(engine: SandboxEngine, task: Task, buildDir: string, repeats: number): Promise<{ wallMs: number; computeMs: number; score: number | null }> {
  const image = await engine.ensureRuntimeImage();
  const started = performance.now();
  const result = await evaluateCandidate({ engine, image, task, buildDir, labels: { session: SESSION, phase: "bench-tax" }, seed: 1, visible: "full", heldout: false, repeats, ...(engine.endpoint === "bare-process" ? {} : limits) });
  return { wallMs: performance.now() - started, computeMs: result.computeMs, score: result.visibleScore };
}

const SESSION = newSessionId();

async function main(): Promise<void> {
  if (!seedIsPristine()) throw new Error("seed-agent/ differs from git HEAD: refusing to run it on the host (see the trust note in this file)");
  console.log(`sandbox tax: ${TRUST_NOTE}`);
  const scratch = await mkdtemp(join(tmpdir(), "evolve-bench-tax-"));
  const buildDir = join(scratch, "build");
  const compiled = await createValidator().validateStatic({ childDir: SEED, buildDir, parentDir: null });
  if (!compiled.ok) throw new Error(`the seed did not compile: ${compiled.failure.message}`);
  const full = await loadTask(join(REPO, "tasks", "circle-packing"));
  const bare = await bareEngine();
  const docker = await connectEngines(LOCAL_ENGINE, pool > 0 ? { warmPool: pool } : {});
  try {
    // Calibrate on the bare side: one pass over the visible instances, then enough repeats
    // (each with its own derived seed, as the task's repeats work) to reach the target compute.
    const calibration = await evaluateCandidate({
      engine: bare, image: await bare.ensureRuntimeImage(), task: full, buildDir, labels: { session: SESSION }, seed: 1, visible: "full", heldout: false, repeats: 10,
    });
    // Ten passes so the per-pass cost is close to the warm-JIT cost of a long evaluation.
    const first = Math.max(1, Math.ceil(targetMs / Math.max(1, calibration.computeMs / 10)));
    // A long evaluation runs faster per pass than the short calibration (warmer JIT), so scale once more on a full-length run.
    const check = await evaluate(bare, { ...full, heldout: [] }, buildDir, first);
    const repeats = Math.max(1, Math.round((first * targetMs) / Math.max(1, check.computeMs)));
    const chosen = full.visible.map((i) => i.id);
    const task: Task = { ...full, heldout: [] };
    console.log(`instances: ${chosen.join(", ")} × ${repeats} repeats (one pass: ${(calibration.computeMs / 10).toFixed(0)} ms of compute on the bare side)`);
    const sides = { container: [] as Awaited<ReturnType<typeof evaluate>>[], bare: [] as Awaited<ReturnType<typeof evaluate>>[] };
    const loadBefore = load1();
    for (let r = 0; r < rounds; r++) {
      // Interleaved, and the order alternates, so a load spike on this shared machine hits both sides alike.
      const order: ("bare" | "container")[] = r % 2 === 0 ? ["bare", "container"] : ["container", "bare"];
      for (const side of order) sides[side].push(await evaluate(side === "bare" ? bare : docker, task, buildDir, repeats));
    }
    const med = (xs: number[]): number => percentile(xs, 50);
    const c = { wall: med(sides.container.map((x) => x.wallMs)), compute: med(sides.container.map((x) => x.computeMs)) };
    const b = { wall: med(sides.bare.map((x) => x.wallMs)), compute: med(sides.bare.map((x) => x.computeMs)) };
    const min = (xs: number[]): number => Math.min(...xs);
    const cMin = min(sides.container.map((x) => x.wallMs));
    const bMin = min(sides.bare.map((x) => x.wallMs));
    const scoresAgree = new Set([...sides.container, ...sides.bare].map((x) => x.score)).size === 1;
    console.log(table([
      ["side (median of " + rounds + ")", "wall ms", "compute ms", "score"],
      ["hardened container (runc)" + (pool > 0 ? ` + warm pool ${pool}` : ""), c.wall, c.compute, String(sides.container[0]?.score ?? "-")],
      ["bare child process", b.wall, b.compute, String(sides.bare[0]?.score ?? "-")],
      ["ratio container / bare", c.wall / b.wall, c.compute / b.compute, scoresAgree ? "same" : "DIFFER"],
    ]));
    console.log(`best of ${rounds} (least disturbed by other load): container ${cMin.toFixed(0)} ms, bare ${bMin.toFixed(0)} ms, ratio ${(cMin / bMin).toFixed(3)}`);
    const cpu = cpuContext();
    if (cpu.cgroupV1DockerShares !== null) console.log(`cgroup v1: all containers share the "docker" cpu cgroup (cpu.shares ${cpu.cgroupV1DockerShares}, the weight of one host task); ${cpu.runningContainers} containers running on the host now`);
    console.log(`wall ratio ${(c.wall / b.wall).toFixed(3)} (goal ≤ 1.15); load average ${loadBefore} → ${load1()}`);
    const file = await saveResults(milliCpus > 0 ? `sandbox-tax-cpus${milliCpus}` : "sandbox-tax", { milliCpus: milliCpus > 0 ? milliCpus : "default (DEFAULT_LIMITS.nanoCpus)",
      trustNote: TRUST_NOTE, task: "circle-packing", instances: chosen, repeats, rounds, warmPool: pool,
      container: sides.container, bare: sides.bare,
      ratioWall: c.wall / b.wall, ratioWallBest: cMin / bMin, ratioCompute: c.compute / b.compute, scoresAgree, loadBefore, loadAfter: load1(), cpu,
    });
    console.log(`results: ${file}`);
  } finally {
    await docker.close();
    await bare.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
