/** Progress output (live line on a terminal, plain lines elsewhere) and the end-of-run summary. */
import { bestGeneration } from "../../harness/src/selection/index.js";
import { describe, expect, it } from "vitest";
import type { GenerationRecord } from "../../harness/src/archive/index.js";
import { formatEngineLoad, formatSummary, Progress, summarise } from "../../harness/src/evolution/index.js";
import { workersFor } from "../../harness/src/evolution/run/run-settings.js";
import type { EngineStatus } from "../../sandbox/src/index.js";
import { generationRecord, invalidAt, scored } from "../support/records.js";

function record(id: string, parent: string | null, visible: number | null, heldout: number | null, valid = true): GenerationRecord {
  return generationRecord({
    id,
    parent,
    depth: parent === null ? 0 : 1,
    ...(valid ? scored(visible, heldout) : invalidAt("compile", "type_error", "task/x.ts:3: nope", { file: "task/x.ts", line: 3 })),
    summary: parent === null ? "seed" : `change ${id}`,
    tokens: { prompt: 10, completion: 5 },
    costUsd: 0.001,
    timings: { total: 1500 },
    createdAt: new Date().toISOString(),
  });
}

const seed = record("g0000", null, 0.7833, 0.65);
const good = record("g0002", "g0000", 0.9, 0.8);
const tie = record("g0003", "g0002", 0.9, 0.7);
const bad = record("g0001", "g0000", null, null, false);

describe("progress", () => {
  it("writes plain lines without terminal codes when not a TTY", () => {
    const chunks: string[] = [];
    const progress = new Progress({ isTTY: false, write: (t) => void chunks.push(t) }, 3, [seed]);
    progress.childStarted();
    progress.recorded(bad);
    progress.stop();
    expect(chunks.join("")).toBe("g0001 <- g0000 [1/3] invalid at compile: type_error - task/x.ts:3: nope (1.5 s)\n");
  });

  it("cuts a long summary at a word", () => {
    const chunks: string[] = [];
    const long = record("g0004", "g0000", 0.8, 0.7);
    const summary = `kept 3 moves: ${"raised maxLocalLength to sixty-four, ".repeat(6)}done`;
    const progress = new Progress({ isTTY: false, write: (t) => void chunks.push(t) }, 3, [seed]);
    progress.recorded({ ...long, summary });
    const shown = /\(1\.5 s\) - (.*)\n$/.exec(chunks.join(""))?.[1] ?? "";
    expect(shown.endsWith("…")).toBe(true);
    expect(shown.length).toBeLessThanOrEqual(120);
    expect(summary.startsWith(shown.slice(0, -1))).toBe(true);
    expect(summary[shown.length - 1]).toMatch(/[\s,]/);
  });

  it("keeps a live line with done/N, running, best, valid/invalid, tokens, cost, elapsed and ETA on a TTY", () => {
    const chunks: string[] = [];
    const progress = new Progress({ isTTY: true, write: (t) => void chunks.push(t) }, 3, [seed, bad]);
    progress.childStarted();
    progress.recorded(good);
    const line = progress.line();
    progress.stop();
    expect(line).toMatch(/^\[2\/3\] running 0 \| best 0\.9000 \| valid 1 invalid 1 \| 45 tokens \$0\.0030 \| \d+s elapsed, ETA \d+s$/);
    const text = chunks.join("");
    expect(text).toContain("\r\x1b[Kg0002 <- g0000 [2/3] valid: visible 0.9000, held-out 0.8000 (1.5 s) - change g0002\n");
    expect(text.endsWith("\r\x1b[K")).toBe(true);
  });
});

describe("several engines", () => {
  const engine = (name: string, state: EngineStatus["state"], running: number, slots: number | null): EngineStatus => ({ name, endpoint: `tcp://${name}:2376`, state, reason: null, info: null, slots, running, image: null });
  const fleet = [engine("a", "up", 2, 2), engine("b", "up", 1, 4), engine("c", "down", 0, 2)];

  it("shows each engine's load on the live line", () => {
    expect(formatEngineLoad(fleet)).toBe("a 2/2 b 1/4 c down");
    const progress = new Progress({ isTTY: true, write: () => undefined }, 3, [seed], { load: () => formatEngineLoad(fleet) });
    expect(progress.line()).toMatch(/ \| engines a 2\/2 b 1\/4 c down \| \d+s elapsed/);
    progress.stop();
  });

  it("gives a fleet one worker per slot of the engines that are up; one engine keeps the default", () => {
    expect(workersFor(fleet, 2)).toBe(6);
    expect(workersFor([engine("local", "up", 0, null)], 2)).toBe(2);
  });
});

describe("summary", () => {
  it("names the best generation (earliest of ties) against the seed, counts, spend and paths", () => {
    const records = [seed, bad, good, tie];
    expect(bestGeneration(records)?.id).toBe("g0002");
    const summary = summarise(records, { runId: "r1", runDir: "/a/r1", end: "finished", requested: 3, model: null, wallMs: 65_000, report: { path: "/a/r1/report.html" } });
    expect(formatSummary(summary)).toEqual([
      "run r1 finished: 3/3 children (2 valid, 1 invalid) in 1m05s",
      "best: g0002 (depth 1)",
      "  visible  0.9000 vs seed 0.7833 (+0.1167)",
      "  held-out 0.8000 vs seed 0.6500 (+0.1500)",
      "llm: offline strategy (no LLM), 60 tokens, $0.0040",
      "archive: /a/r1",
      "report: /a/r1/report.html",
    ]);
  });
});
