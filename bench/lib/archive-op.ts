/**
 * One archive operation in its own process, so its peak RSS can be measured alone
 * (bench/archive-scale.ts runs it under /usr/bin/time -v). Prints {"ms": ..., "generations": ...}.
 *
 *   node --import tsx bench/lib/archive-op.ts load|report <runDir>
 */
import { readRun } from "../../harness/src/archive/index.js";
import { writeReport } from "../../harness/src/report/index.js";

const [op, runDir] = process.argv.slice(2);
if (runDir === undefined || (op !== "load" && op !== "report")) throw new Error("usage: archive-op.ts load|report <runDir>");
const started = performance.now();
let generations = 0;
if (op === "load") generations = (await readRun(runDir)).generations.length;
else await writeReport(runDir);
process.stdout.write(JSON.stringify({ ms: performance.now() - started, generations }) + "\n");
