/** `--from RUN/GEN`: a new run whose generation 0 is that generation's snapshot, its origin in run.json. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRunRecord, readGeneration } from "../../harness/src/archive/index.js";
import { startRun } from "../../harness/src/evolution/index.js";
import { memorySink } from "./run-helpers.js";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";

let env: TestEngine;
let out: string;

beforeAll(async () => {
  env = await memoryEngine();
  out = await mkdtemp(join(tmpdir(), "evolve-branch-"));
});
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe("evolve run --from", () => {
  it("starts from the named generation's snapshot and records where it came from", async () => {
    const io = { signal: new AbortController().signal, env: {}, engine: env.engine, session: env.session };
    const origin = await startRun({ generations: 0, out, runId: "origin", workers: 1 }, { ...io, sink: memorySink() });
    expect(origin.end).toBe("finished");
    const branched = await startRun({ generations: 0, out, runId: "branch", from: "origin/g0000", workers: 1 }, { ...io, sink: memorySink() });
    expect(branched.end).toBe("finished");
    const run = await readRunRecord(join(out, "branch"));
    expect(run.ok && run.value.from).toEqual({ run: "origin", generation: "g0000", lineage: ["g0000"] });
    expect(run.ok && run.value.config.task.name).toBe("email-validation");
    const [a, b] = await Promise.all([readGeneration(join(out, "origin"), "g0000"), readGeneration(join(out, "branch"), "g0000")]);
    expect(b.snapshotHash).toBe(a.snapshotHash);
    expect(b.summary).toBe("branched from origin/g0000");
    // Scored on the same instances with the same evaluation seed.
    expect(b.scores).toEqual(a.scores);
    await expect(startRun({ generations: 0, out, from: "origin/g0042" }, { ...io, sink: memorySink() })).rejects.toThrow(/g0042/);
  });
});
