/**
 * Validation benchmark: p50/p95 of each gate for the seed agent. Measures and prints;
 * asserts nothing. Run with `npx tsx bench/validate.ts [runs] [--static-only]` (default 10 runs).
 *
 * Rows:
 *   cold      the first validation of a fresh validator (parses lib files and toolchain types)
 *   identical the unchanged seed again (every file's closure proven before)
 *   one-edit  the seed with one file edited per run, rotating over its files (a typical rewrite)
 *   baseline  the import gate on a two-file agent: one bare container round trip, for comparison
 *
 * Gate times are taken where the gates run (policy, compile and signature inside the check
 * worker); the "wall" line of each row is the whole call as the harness waits for it, hand-off
 * to the worker and back included.
 */
import { appendFile, cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ValidationStage, type ValidationTimings } from "../harness/src/results/index.js";
import { createValidator, type ValidationOutcome } from "../harness/src/validation/index.js";
import { connectEngines, newSessionId } from "../sandbox/src/index.js";
import { percentile } from "./lib/stats.js";

const REPO = resolve(import.meta.dirname, "..");
const SEED = join(REPO, "seed-agent");
const BASELINE = join(REPO, "tests", "fixtures", "validation", "base");
const args = process.argv.slice(2);
/** `--static-only` skips the import gate (no containers): gates 0–2 alone. */
const staticOnly = args.includes("--static-only");
const runs = Math.max(1, Number(args.find((a) => /^\d+$/.test(a)) ?? 10));

async function listTs(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === "" ? e.name : `${prefix}/${e.name}`;
    if (e.isDirectory()) out.push(...(await listTs(dir, rel)));
    else if (rel.endsWith(".ts")) out.push(rel);
  }
  return out.sort();
}

const rows: { name: string; timings: ValidationTimings[]; wallMs: number[]; failures: string[] }[] = [];
async function record(name: string, call: Promise<ValidationOutcome>): Promise<void> {
  const started = performance.now();
  const outcome = await call;
  const wallMs = performance.now() - started;
  let row = rows.find((r) => r.name === name);
  if (row === undefined) rows.push((row = { name, timings: [], wallMs: [], failures: [] }));
  row.timings.push(outcome.timings);
  row.wallMs.push(wallMs);
  // A failed gate is reported, not hidden: its timing still counts for the gates that ran.
  if (!outcome.ok) row.failures.push(`${outcome.failure.stage}/${outcome.failure.code}: ${outcome.failure.message.split("\n")[0]}`);
}

const engine = await connectEngines();
const image = await engine.ensureRuntimeImage();
const labels = { session: newSessionId(), phase: "bench-validate" };
const scratch = await mkdtemp(join(tmpdir(), "evolve-bench-validate-"));
const container = { engine, image, labels, importTimeoutMs: 60_000 };
let builds = 0;
const nextBuild = (): string => join(scratch, `build-${builds++}`);

try {
  const full = createValidator();
  const validator = staticOnly
    ? {
        validateSeed: (o: { childDir: string; buildDir: string }) => full.validateStatic({ ...o, parentDir: null }),
        validateRewrite: (o: { parentDir: string; childDir: string; buildDir: string }) => full.validateStatic(o),
      }
    : full;
  await record("cold", validator.validateSeed({ childDir: SEED, buildDir: nextBuild(), ...container }));
  for (let i = 0; i < runs; i++) {
    await record("identical", validator.validateSeed({ childDir: SEED, buildDir: nextBuild(), ...container }));
  }
  const files = await listTs(SEED);
  for (let i = 0; i < runs; i++) {
    const child = join(scratch, `child-${i}`);
    await cp(SEED, child, { recursive: true });
    await appendFile(join(child, files[i % files.length] ?? "task/index.ts"), `\n// bench edit ${i}\n`);
    await record("one-edit", validator.validateRewrite({ parentDir: SEED, childDir: child, buildDir: nextBuild(), ...container }));
  }
  for (let i = 0; i < Math.min(runs, 5); i++) {
    await record("baseline", validator.validateSeed({ childDir: BASELINE, buildDir: nextBuild(), ...container }));
  }
  await full.close();
} finally {
  await rm(scratch, { recursive: true, force: true });
}

const fmt = (ms: number): string => (Number.isNaN(ms) ? "-" : ms.toFixed(0)).padStart(7);
console.log(`\nvalidation gates of the seed agent, milliseconds (${runs} runs per row; cold is one run)\n`);
console.log(`${"row".padEnd(10)} ${"gate".padEnd(22)} ${"p50".padStart(7)} ${"p95".padStart(7)}`);
for (const row of rows) {
  const column = (pick: (t: ValidationTimings) => number | undefined): number[] =>
    row.timings.map(pick).filter((v): v is number => v !== undefined);
  for (const stage of ValidationStage.options) {
    const values = column((t) => t[stage]);
    console.log(`${row.name.padEnd(10)} ${stage.padEnd(22)} ${fmt(percentile(values, 50))} ${fmt(percentile(values, 95))}`);
  }
  const statics = column((t) => (t.policy ?? 0) + (t.compile ?? 0) + (t.signature ?? 0));
  console.log(`${row.name.padEnd(10)} ${"policy+compile+sig".padEnd(22)} ${fmt(percentile(statics, 50))} ${fmt(percentile(statics, 95))}`);
  console.log(`${row.name.padEnd(10)} ${`wall${staticOnly ? " (gates 0-2)" : ""}`.padEnd(22)} ${fmt(percentile(row.wallMs, 50))} ${fmt(percentile(row.wallMs, 95))}`);
}
for (const row of rows) {
  for (const failure of new Set(row.failures)) console.log(`FAILED ${row.name} (${row.failures.length}x): ${failure}`);
}
console.log("\ngoals: policy+compile+signature <= 1000 ms p50; import <= one container round trip (see baseline/import)");
