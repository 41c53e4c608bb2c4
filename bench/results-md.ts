/**
 * Part 6: bench/RESULTS.md regenerated from bench/results/*.json (whatever parts have been
 * measured; a part never measured says so). Run by bench/run-all.ts, or alone:
 *
 *   npx tsx bench/results-md.ts
 */
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DEFAULT_WARM_POOL } from "../harness/src/evolution/index.js";
import { checkArgs } from "./lib/args.js";
import { BENCH_DIR, cell, percentile, table } from "./lib/stats.js";

checkArgs("npx tsx bench/results-md.ts");

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- read back from our own result files

const RESULTS = join(BENCH_DIR, "results");

async function read(name: string): Promise<Json | null> {
  const file = join(RESULTS, `${name}.json`);
  return existsSync(file) ? (JSON.parse(await readFile(file, "utf8")) as Json) : null;
}

const md = (rows: (string | number)[][]): string => {
  const cells = rows.map((r) => r.map((c) => (typeof c === "number" ? (Math.abs(c) >= 100 ? c.toFixed(0) : c.toFixed(2)) : c)));
  return [cells[0]!, cells[0]!.map(() => "---"), ...cells.slice(1)].map((r) => `| ${r.join(" | ")} |`).join("\n");
};
const when = (r: Json | null): string => (r === null ? "" : ` (measured ${String(r.measuredAt).slice(0, 16).replace("T", " ")} UTC)`);

async function overheadSection(): Promise<string> {
  const variants = new Map<number, Json & { measuredAt: string }>();
  const files = existsSync(RESULTS) ? (await readdir(RESULTS)).filter((f) => /^overhead(-pool\d+)?\.json$/.test(f)) : [];
  for (const f of files) {
    const r = JSON.parse(await readFile(join(RESULTS, f), "utf8")) as Json;
    for (const v of r.results.variants as Json[]) {
      const prev = variants.get(v.warmPool);
      if (prev === undefined || prev.measuredAt < r.measuredAt) variants.set(v.warmPool, { ...v, measuredAt: r.measuredAt, file: f, techniques: r.results.techniques, task: r.results.task });
    }
  }
  if (variants.size === 0) return "## 1. Overhead per candidate\n\nNot measured yet: `npx tsx bench/overhead.ts`.\n";
  const vs = [...variants.values()].sort((a, b) => a.warmPool - b.warmPool);
  const keys: [string, string][] = [
    ["loop", "loop: selection, run record"], ["smStart", "self-modify container start"], ["smLoad", "tree in + meta agent load"], ["agentCompute", "**improve() — agent compute**"], ["drafts", "ctx.evaluate drafts (checks + containers)"],
    ["smTakeOut", "workspace out"], ["smRemove", "self-modify container stop+remove (waited for)"], ["extract", "diff + hash"], ["policy", "policy"], ["compile", "compile"],
    ["signature", "signature"], ["import", "import gate (container)"], ["evalStart", "evaluation container starts (3)"], ["taskCompute", "**solve() — task compute**"],
    ["evalOther", "evaluation: load, grading, I/O"], ["evalRemove", "evaluation container removes (waited for)"], ["record", "archive: record prepared"], ["archiveWrite", "archive: record folder written"], ["backgroundRemove", "removals of released containers (background, not in total)"], ["total", "total"],
    ["overhead", "**harness overhead = total − agent − task**"],
  ];
  // Results since issue 29 keep valid children apart from stopped ones; older ones have all children only.
  const split = vs.every((v) => v.valid !== undefined);
  const rows: (string | number)[][] = split
    ? [["phase (ms)", ...vs.flatMap((v) => [`valid p50, pool ${v.warmPool}`, `valid p95, pool ${v.warmPool}`, `stopped p50, pool ${v.warmPool}`])]]
    : [["phase (ms)", ...vs.flatMap((v) => [`p50, pool ${v.warmPool}`, `p95, pool ${v.warmPool}`])]];
  for (const [k, label] of keys) rows.push([label, ...vs.flatMap((v) => (split ? [cell(v.valid.p50[k]), cell(v.valid.p95[k]), cell(v.stopped.p50[k])] : [cell(v.p50[k]), cell(v.p95[k])]))]);
  const lines = vs.map((v) =>
    split
      ? `- warm pool ${v.warmPool}${v.warmPool === DEFAULT_WARM_POOL ? " (the default of `evolve run`)" : ""}: ${v.generations} children of ${v.task} at W = 1 (${v.valid.n} valid, ${v.stopped.n} stopped); overhead p50 over valid children **${(v.valid.p50.overhead / 1000).toFixed(2)} s**, p95 ${(v.valid.p95.overhead / 1000).toFixed(2)} s (goal p50 ≤ 0.5 s with the pool: ${v.valid.p50.overhead <= 500 ? "met" : "**not met**"}); over stopped ones ${v.stopped.n === 0 ? "— (none stopped)" : `${(v.stopped.p50.overhead / 1000).toFixed(2)} s`}; load average ${v.loadBefore} → ${v.loadAfter}${when({ measuredAt: v.measuredAt })}.`
      : `- warm pool ${v.warmPool}${v.warmPool === DEFAULT_WARM_POOL ? " (what `evolve run` uses by default)" : ""}: ${v.generations} children of ${v.task} at W = 1, overhead p50 **${(v.p50.overhead / 1000).toFixed(2)} s**, p95 ${(v.p95.overhead / 1000).toFixed(2)} s (goal p50 ≤ 1.5 s: ${v.p50.overhead <= 1500 ? "met" : "**not met**"}); load average ${v.loadBefore} → ${v.loadAfter}${when({ measuredAt: v.measuredAt })}.`,
  );
  const span = (v: Json): [number, number] => [Date.parse(v.measuredAt) - v.wallMs, Date.parse(v.measuredAt)];
  // Variants from one file ran one after the other in one process; only separate files can overlap.
  const overlapped = vs.length > 1 && vs.some((a) => vs.some((b) => a !== b && a.file !== b.file && span(a)[0] < span(b)[1] && span(b)[0] < span(a)[1]));
  if (overlapped) lines.push("- These variants ran **at the same time** (to finish in the time available); each one's figures include the other's load.");
  const worst = vs[vs.length - 1]!;
  const worstFigures = split ? worst.valid.p50 : worst.p50;
  const agentLoad = worstFigures.smLoad + worstFigures.import;
  return `## 1. Overhead per candidate

${md(rows)}

${lines.join("\n")}

Where it goes (p50, pool ${worst.warmPool}): ctx.evaluate's drafts ~${((worstFigures.drafts ?? 0) / 1000).toFixed(1)} s; the workspace out of the self-modify container ~${(worstFigures.smTakeOut / 1000).toFixed(1)} s; loading the meta agent (and the import gate) ~${(agentLoad / 1000).toFixed(1)} s; compile ~${(worstFigures.compile / 1000).toFixed(1)} s; evaluation containers (load, grading) ~${((worstFigures.evalOther ?? 0) / 1000).toFixed(1)} s. With the warm pool, container starts drop to ~0 ms. A container released once its work is in (its stderr flushed) comes down in the background: its removal is shown apart and is not in the total.
Techniques: ${(worst.techniques as string[]).join("; ")}.
`;
}

const medianOf = (rounds: Json[], key: string): number => percentile(rounds.map((r) => r[key] as number), 50);

async function taxSection(): Promise<string> {
  const r = await read("sandbox-tax");
  if (r === null) return "## 2. Sandbox tax\n\nNot measured yet: `npx tsx bench/sandbox-tax.ts`.\n";
  const x = r.results;
  return `## 2. Sandbox tax${when(r)}

Same evaluation (seed's circle-packing build, ${x.instances.length} visible instances × ${x.repeats} repeats, real grader and session code), interleaved ${x.rounds} rounds.
Wall-time ratio container / bare process: median **${x.ratioWall.toFixed(2)}**, best-of-${x.rounds} ${x.ratioWallBest?.toFixed(2) ?? "—"} (goal ≤ 1.15: ${x.ratioWall <= 1.15 ? "met" : "**not met**"}); compute ratio ${x.ratioCompute.toFixed(2)}; scores ${x.scoresAgree ? "identical" : "DIFFER"} on both sides. Load average ${x.loadBefore} → ${x.loadAfter}.

${x.cpu?.cgroupV1DockerShares != null ? `Context: this host uses cgroup v1, where all containers share the one "docker" cpu cgroup (cpu.shares ${x.cpu.cgroupV1DockerShares}: the weight of a single root-level host task), so under load the containers as a group get a small slice of the CPU while the bare process competes as one task among many; the tax grows with the load average. ${x.cpu.runningContainers} container(s) of any user were running on the host when it finished. Of the container's extra wall time (medians: ${(medianOf(x.container, "wallMs") - medianOf(x.bare, "wallMs")).toFixed(0)} ms), ${(medianOf(x.container, "computeMs") - medianOf(x.bare, "computeMs")).toFixed(0)} ms is slower compute and the rest start-up, file transfer and session I/O.` : ""}

${await quotaNote()}Trust note: ${x.trustNote}
`;
}

/** Runs with another CPU quota (`--milli-cpus`), to tell the quota from the CPU share. */
async function quotaNote(): Promise<string> {
  const files = existsSync(RESULTS) ? (await readdir(RESULTS)).filter((f) => /^sandbox-tax-cpus\d+\.json$/.test(f)) : [];
  const notes: string[] = [];
  for (const f of files) {
    const r = JSON.parse(await readFile(join(RESULTS, f), "utf8")) as Json;
    const x = r.results;
    notes.push(`With a container CPU quota of ${x.milliCpus / 1000} CPUs (\`--milli-cpus ${x.milliCpus}\`)${when(r)}: wall ratio ${x.ratioWall.toFixed(2)}, compute ratio ${x.ratioCompute.toFixed(2)}, load average ${x.loadBefore} → ${x.loadAfter}.`);
  }
  return notes.length === 0 ? "" : `${notes.join("\n")}\n\n`;
}

async function throughputSection(): Promise<string> {
  const r = await read("throughput");
  if (r === null) return "## 3. Throughput\n\nNot measured yet: `npx tsx bench/throughput.ts`.\n";
  const x = r.results;
  return `## 3. Throughput${when(r)}

${x.task}, ${x.generations} children per W, offline strategy; rate between the seed's record and the last child's.

${md([["W", "children/min", "efficiency vs W = 1", "valid", "harness peak RSS MB", "load avg"], ...(x.rows as Json[]).map((w) => [String(w.workers), w.perMinute, `${(100 * w.efficiency).toFixed(0)}%`, `${w.valid}/${w.children}`, w.maxRssMb, `${w.loadBefore} → ${w.loadAfter}`])])}
`;
}

async function searchSection(): Promise<string> {
  const r = (await read("search")) ?? (await read("search-reduced"));
  if (r === null) return "## 4. Search efficiency\n\nNot measured yet: `npx tsx bench/search.ts`.\n";
  const x = r.results;
  const s = x.settings;
  const recorded = (x.runs as Json[]).filter((run) => run.result !== null).length;
  const planned = s.seeds * s.tasks.length * s.strategies.length;
  const progress = x.complete ? "" : ` **Partial: ${recorded} of ${planned} runs recorded so far** (seed-major order; the same command continues the grid).`;
  const fmt = (m: number, d: number): string => `${m.toFixed(3)} ± ${d.toFixed(3)}`;
  // The curve at five checkpoints (after 0, ¼, ½, ¾ and all of the children); the JSON has every point.
  const checkpoints = [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(f * s.generations));
  const at = (curve: number[], i: number): string => (curve[Math.min(i, curve.length - 1)] ?? NaN).toFixed(3);
  const rows = (x.summary as Json[]).map((a) => [a.task, a.strategy, String(a.runs), fmt(a.visibleMean, a.visibleSd), fmt(a.heldoutMean, a.heldoutSd), `${(100 * a.validShare).toFixed(0)}%`, checkpoints.map((c) => at(a.curve as number[], c)).join(" → ")]);
  return `## 4. Search efficiency${when(r)}

${x.reduced ? `**REDUCED settings** (${s.generations} children, ${s.seeds} seed(s), tasks ${s.tasks.join(", ")}; W = ${s.workers})${x.complete ? "" : ", **incomplete** (cut short)"}. Full settings: \`${x.fullCommand}\`.` : `Full settings: ${s.generations} children, ${s.seeds} seeds, W = ${s.workers}, warm pool ${s.warmPool ?? 0}; \`${x.fullCommand}\`.${progress}`}
Best visible score reached and the held-out score of that generation, mean ± sd over seeds; curve = mean best visible after ${checkpoints.join(", ")} children (0: the seed alone).

${md([["task", "strategy", "runs", "best visible", "its held-out", "valid", "best-visible curve"], ...rows])}
${winners(x.summary as Json[])}${runCost(x.runs as Json[])}`;
}

/** The offline meta strategies at equal container budget (bench/search.ts --containers N --meta ...). */
async function metaSection(): Promise<string> {
  const r = await read("search-containers");
  if (r === null) return "## 4b. Offline meta strategies at equal container budget\n\nNot measured yet: `npx tsx bench/search.ts --containers 300 --meta one-move,inner-loop`.\n";
  const x = r.results;
  const s = x.settings;
  const fmt = (m: number, d: number): string => `${m.toFixed(3)} ± ${d.toFixed(3)}`;
  const rows = (x.summary as Json[]).map((a) => [a.task, a.meta, String(a.runs), fmt(a.visibleMean, a.visibleSd), fmt(a.heldoutMean, a.heldoutSd), a.children.toFixed(1), a.containers.toFixed(0), a.evaluateContainers.toFixed(0), a.duplicates.toFixed(1), `${(100 * a.validShare).toFixed(0)}%`, `${(a.wallMs / 60_000).toFixed(1)} min`]);
  return `## 4b. Offline meta strategies at equal container budget${when(r)}

${x.reduced ? "**REDUCED settings**. " : ""}Each run stops once ${s.containerBudget} containers have started through the harness (self-modification, checks, evaluations of children and of ctx.evaluate drafts alike); ${s.seeds} seeds, selection ${s.strategies.join(", ")}, W = ${s.workers}; \`${x.fullCommand}\`. one-move: \`--evaluations 0\` (one untested move per child, as before issue 17); inner-loop: \`--evaluations 3\` (up to three moves tested with ctx.evaluate, the best kept). Mean ± sd over seeds; the other columns are means per run.

${md([["task", "meta", "runs", "best visible", "its held-out", "children", "containers", "of them ctx.evaluate", "duplicates", "valid", "wall"], ...rows])}
`;
}

async function arenaSection(): Promise<string> {
  const r = await read("arena");
  if (r === null) return "## 7. Arena vs fixed benchmark at equal container budget\n\nNot measured yet: `npm run bench:arena -- --seeds 5 --rounds 6`.\n";
  const { settings, rows } = r.results as { settings: Json; rows: Json[] };
  const stat = (values: (number | null | undefined)[]): string => {
    const v = values.filter((x): x is number => typeof x === "number");
    if (v.length === 0) return "-";
    const mean = v.reduce((a, b) => a + b, 0) / v.length;
    const sd = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, v.length - 1));
    return `${mean.toFixed(3)} ± ${sd.toFixed(3)}`;
  };
  const f = (x: number | null | undefined): string => (typeof x === "number" ? x.toFixed(3) : "-");
  const tasks = [...new Set(rows.map((x) => x.task as string))];
  const summary = tasks.map((task) => {
    const mine = rows.filter((x) => x.task === task);
    return [task, String(mine.length), stat(mine.map((x) => x.arena.heldout)), stat(mine.map((x) => x.fixed.heldout)), stat(mine.map((x) => x.fixed.visible)), stat(mine.map((x) => x.arena.allTests)), stat(mine.map((x) => x.fixed.allTests)), (mine.reduce((n, x) => n + (x.containers.arena as number), 0) / mine.length).toFixed(0)];
  });
  const perRun = rows.map((x) => [x.task, String(x.seed), `${x.containers.arena}/${x.containers.fixed}`, `${x.arena.best} ${f(x.arena.heldout)}`, `${x.fixed.best} ${f(x.fixed.heldout)}`, f(x.fixed.visible), String(x.arena.admitted ?? "-"), f(x.arena.allTests), f(x.fixed.allTests)]);
  return `## 7. Arena vs fixed benchmark at equal container budget${when(r)}

Per task and seed (${settings.seeds} seeds, ${settings.rounds} rounds, W = ${settings.workers}, offline strategy): an arena duel runs first and its containers are counted; an ordinary run with the same seed is then stopped once it has started as many. Held-out: of what each run would ship (the arena's best on visible + suite, the fixed run's best visible). "All arena tests": every test that entered the arena's suite during the run, scored now in fresh containers for the arena's best and the fixed winner. \`npm run bench:arena -- --seeds ${settings.seeds} --rounds ${settings.rounds}\`. Mean ± sd over seeds.

${md([["task", "runs", "held-out: arena", "held-out: fixed", "fixed winner: visible", "all arena tests: arena best", "all arena tests: fixed winner", "containers per run"], ...summary])}

Per run:

${md([["task", "seed", "containers a/f", "arena best, held-out", "fixed best, held-out", "fixed best: visible", "tests admitted", "arena best: all tests", "fixed best: all tests"], ...perRun])}
`;
}

/** Per task: the highest mean best-visible and held-out, and whether the lead exceeds one sd. */
function winners(summary: Json[]): string {
  const tasks = [...new Set(summary.map((a) => a.task as string))];
  const lines = tasks.flatMap((task) => {
    const rows = summary.filter((a) => a.task === task).sort((a, b) => b.visibleMean - a.visibleMean);
    const [first, second] = rows;
    const held = [...rows].sort((a, b) => b.heldoutMean - a.heldoutMean)[0];
    if (first === undefined || held === undefined) return [];
    const close = second !== undefined && first.visibleMean - second.visibleMean <= Math.max(first.visibleSd, second.visibleSd);
    const spread = first.runs < 2 ? " (one run each so far: no spread to judge a win by)" : close ? ` (within one sd of ${second.strategy}: not a clear win)` : "";
    return `- ${task}: highest mean best-visible **${first.strategy}**${spread}; highest held-out of that generation **${held.strategy}**.`;
  });
  return lines.length === 0 ? "" : `\n${lines.join("\n")}\n`;
}

/** What the recorded runs cost: mean wall time of one run per task. */
function runCost(runs: Json[]): string {
  const tasks = [...new Set(runs.filter((r) => r.result !== null && r.wallMs !== undefined).map((r) => r.task as string))];
  const parts = tasks.map((task) => {
    const walls = runs.filter((r) => r.task === task && r.result !== null && r.wallMs !== undefined).map((r) => r.wallMs as number);
    return `${task} ${(walls.reduce((a, b) => a + b, 0) / walls.length / 60_000).toFixed(1)} min (${walls.length} runs)`;
  });
  return parts.length === 0 ? "" : `\nMean wall time of one run (seed evaluation included): ${parts.join("; ")}.\n`;
}

/** The CLI run's peak RSS: the median over runs against the 300 MB goal, and whether every run met it. */
function cliRssLine(generations: unknown, peaks: number[]): string {
  const median = percentile(peaks, 50);
  const verdict = Math.max(...peaks) <= 300 ? "met" : median <= 300 ? "met at the median, not in every run" : "**not met**";
  return `Harness peak RSS during \`evolve run --generations ${generations} --workers 2\` (the CLI as a user starts it, whole process under /usr/bin/time): **median ${median.toFixed(0)} MB** over ${peaks.length} runs (${peaks.map((v) => v.toFixed(0)).join(", ")}) — goal ≤ 300 MB: ${verdict}.`;
}

async function scaleSection(): Promise<string> {
  const r = await read("archive-scale");
  const t = await read("throughput");
  const w2 = (t?.results.rows as Json[] | undefined)?.find((w) => w.workers === 2);
  const run = r?.results.run as Json | undefined;
  const peaks = ((run?.maxRssMb ?? []) as (number | null)[]).filter((v): v is number => v !== null);
  const cli = peaks.length === 0 ? "The CLI run's peak RSS is not measured yet (`npx tsx bench/archive-scale.ts`)." : cliRssLine(run?.generations, peaks);
  const bench = w2 === undefined ? "" : ` For comparison, the throughput benchmark's W = 2 process (the same harness plus reading the run back for its figures) peaked at ${w2.maxRssMb.toFixed(0)} MB.`;
  const rss = `${cli}${bench} Techniques: \`openai\` is loaded on the first LLM call (an offline run never loads it); bin/evolve.js starts node with \`--max-semi-space-size=4 --heap-growing-percent=20\` (a smaller young generation, slower old-generation growth).`;
  if (r === null) return `## 5. Archive scale and memory\n\nNot measured yet: \`npx tsx bench/archive-scale.ts\`. ${rss}\n`;
  const mb = (v: number | null): string => (v === null ? "n/a" : v.toFixed(0));
  return `## 5. Archive scale and memory${when(r)}

Synthetic runs written through the real ArchiveWriter (on ${r.results.scratch}); each operation in its own process under /usr/bin/time -v (wall includes node + tsx start-up).

${md([["generations", "write s", "load s", "load RSS MB", "evolve tree s", "tree RSS MB", "report s", "report RSS MB"], ...(r.results.results as Json[]).map((x) => [String(x.generations), x.writeMs / 1000, x.load.wallMs / 1000, mb(x.load.maxRssMb), x.tree.wallMs / 1000, mb(x.tree.maxRssMb), x.report.wallMs / 1000, mb(x.report.maxRssMb)])])}

${growth(r.results.results as Json[])}${rss}
`;
}

/** Says when `evolve tree` time grows faster than the archive (a quadratic step somewhere). */
function growth(rows: Json[]): string {
  const [a, b] = [...rows].sort((x, y) => x.generations - y.generations);
  if (a === undefined || b === undefined) return "";
  const factor = b.tree.wallMs / a.tree.wallMs;
  const size = b.generations / a.generations;
  return factor > 2 * size
    ? `\`evolve tree\` time grew ${factor.toFixed(0)}× for ${size}× the generations while loading grew ${(b.load.wallMs / a.load.wallMs).toFixed(1)}×: superlinear work after loading (at the time of writing: checkLineage calls lineageOf per node, which rebuilds the id map each time, O(n²)).\n\n`
    : "";
}

const CPU_PARTS = ["harness", "worker", "containers", "daemons", "shims"] as const;

/** bench/cpu.ts: CPU-seconds per child by where they were spent, beside the run before the container cuts when it was kept. */
async function cpuSection(): Promise<string> {
  const now = await read("cpu");
  if (now === null) return "## 8. Where a child's CPU goes\n\nNot measured yet: `npx tsx bench/cpu.ts`.\n";
  const before = await read("cpu-before-container-cuts");
  const total = (row: Json): number => CPU_PARTS.reduce((sum, k) => sum + (row.cpu[k] as number), 0);
  const key = (row: Json): string => `${row.model} W=${row.workers}`;
  const beforeRows = new Map<string, Json>(((before?.results.rows ?? []) as Json[]).map((r) => [key(r), r]));
  const rows: (string | number)[][] = [["model, W", "children (valid)", ...CPU_PARTS, "total / child", "total / valid child", "containers / child", "before: children (valid)", "before: total / valid child", "before: containers / child", "load avg"]];
  for (const r of now.results.rows as Json[]) {
    const b = beforeRows.get(key(r));
    const containers = (x: Json): number => Object.values(x.run.phases as Record<string, number>).reduce((a, n) => a + n, 0) / x.run.children;
    rows.push([
      key(r), `${r.run.children} (${r.run.valid})`, ...CPU_PARTS.map((k) => (r.cpu[k] as number) / r.run.children),
      total(r) / r.run.children, total(r) / r.run.valid, containers(r),
      b === undefined ? "—" : `${b.run.children} (${b.run.valid})`, b === undefined ? "—" : total(b) / b.run.valid, b === undefined ? "—" : containers(b), `${r.loadBefore} → ${r.loadAfter}`,
    ]);
  }
  const phaseRows = now.results.rows as Json[];
  const served = [...new Set(phaseRows.flatMap((r) => Object.keys((r.byPhase ?? {}) as Json)))].sort();
  const byPhase = served.length === 0 ? "" : `\nCPU-seconds of one container, by the phase it served (count in brackets):\n\n${md([["model, W", ...served], ...phaseRows.map((r) => [key(r), ...served.map((p) => { const x = (r.byPhase as Json)[p] as Json | undefined; return x === undefined ? "—" : `${((x.cpu as number) / (x.containers as number)).toFixed(2)} (${x.containers})`; })])])}\n`;
  return `## 8. Where a child's CPU goes${when(now)}

CPU-seconds per child on ${now.results.task}, offline and with the slow scripted model (${now.results.latencyMs} ms a call), warm pool ${now.results.warmPool}. "Before" is the same command at the commit before issue 29's container cuts${before === null ? " (not kept)" : when(before)}; its seed agent was older and made more empty diffs, so where its valid share differs, compare per child too.

${md(rows)}
${byPhase}
${(now.results.notes as string[]).map((n) => `- ${n}`).join("\n")}
`;
}

async function main(): Promise<void> {
  const any = (await read("overhead-pool0")) ?? (await read("overhead")) ?? (await read("throughput"));
  const machine = any?.machine as Json | undefined;
  const text = `# Benchmark results

Regenerated ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC by \`npx tsx bench/results-md.ts\` from bench/results/*.json.
Machine: ${machine ? `${machine.cpus} cores (${machine.cpuModel}), Node ${machine.node}` : "unknown"}; shared with other work, so each figure carries the load average seen while it was measured.
Every figure below was measured; none is estimated.

Commands: \`npm run bench\` (= \`npx tsx bench/run-all.ts\`, all parts, search at reduced settings unless \`--full\`), or one part: \`npx tsx bench/overhead.ts\`, \`bench/sandbox-tax.ts\`, \`bench/throughput.ts\`, \`bench/search.ts\`, \`bench/archive-scale.ts\`, \`bench/arena.ts\`.

${await overheadSection()}
${await taxSection()}
${await throughputSection()}
${await searchSection()}
${await metaSection()}
${await scaleSection()}
${await arenaSection()}
${await cpuSection()}`;
  await writeFile(join(BENCH_DIR, "RESULTS.md"), text);
  console.log(`wrote ${join(BENCH_DIR, "RESULTS.md")}`);
}

void table;
await main();
