/**
 * The check worker between candidates (issue 29): CPU-seconds it spends over N checks of
 * children of the seed (each moves one knob of the task's solver), with the worker idle for
 * --idle-ms after each, as it is while candidates wait on a model; and its resident memory,
 * at its peak and at the end. Run it at two commits to compare the worker's settings. It
 * measures and prints.
 *
 *   npx tsx bench/check-idle.ts [--checks 8] [--idle-ms 5000]
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execFileSync } from "node:child_process";
import { createValidator } from "../harness/src/validation/index.js";
import { argInt, checkArgs, load1 } from "./lib/args.js";
import { treeCpu } from "./lib/proc-cpu.js";

checkArgs("npx tsx bench/check-idle.ts [--checks 8] [--idle-ms 5000]");
const checks = argInt("checks", 8);
if (checks < 1) throw new Error("--checks must be at least 1");
const idleMs = argInt("idle-ms", 5_000);
const SEED = resolve(import.meta.dirname, "../seed-agent");
const SOLVER = "task/email-validation.ts";
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Resident memory of the check worker (kB): [peak, now]. */
async function workerMemory(): Promise<[number, number]> {
  const pid = execFileSync("pgrep", ["-x", "evolve-check"], { encoding: "utf8" }).trim().split(/\s+/)[0];
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return [kb("VmHWM"), kb("VmRSS")];
}

const work = await mkdtemp(join(tmpdir(), "evolve-check-idle-"));
const validator = createValidator();
const loadBefore = load1();
try {
  const seed = await validator.validateStatic({ childDir: SEED, buildDir: join(work, "seed-build"), parentDir: null });
  if (!seed.ok) throw new Error(`the seed failed its checks: ${seed.failure.message}`);
  await sleep(idleMs);
  const before = treeCpu("self").descendants;
  const text = await readFile(join(SEED, SOLVER), "utf8");
  const knob = /^ {2}\w+: (\d+), \/\/ evolve:range (\d+)\.\.\d+ int$/m.exec(text);
  if (knob === null) throw new Error(`no integer knob in ${SOLVER}`);
  for (let i = 0; i < checks; i++) {
    const child = join(work, `child-${i}`);
    await cp(SEED, child, { recursive: true });
    await writeFile(join(child, SOLVER), text.replace(knob[0], knob[0].replace(`: ${knob[1]},`, `: ${Number(knob[2]) + i + 1},`)));
    const outcome = await validator.validateStatic({ childDir: child, buildDir: join(work, `build-${i}`), parentDir: SEED });
    if (!outcome.ok) throw new Error(`child ${i} failed its checks: ${outcome.failure.message}`);
    await sleep(idleMs);
  }
  const cpu = treeCpu("self").descendants - before;
  const [peak, now] = await workerMemory();
  console.log(`check worker, ${checks} checks with ${idleMs} ms idle after each (load average ${loadBefore} → ${load1()}):`);
  console.log(`  CPU-seconds ${cpu.toFixed(2)} (${(cpu / checks).toFixed(3)} a check); resident memory ${Math.round(peak / 1024)} MB at its peak, ${Math.round(now / 1024)} MB at the end`);
} finally {
  await validator.close();
  await rm(work, { recursive: true, force: true });
}
