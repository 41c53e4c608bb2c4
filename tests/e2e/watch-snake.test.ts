/**
 * Watch the best play: a real offline snake run records its games as it grades them, and
 * `evolve watch` plays one from the archive afterwards (nothing re-run, no container), through
 * the real binary.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECKOUT_BIN, runEvolve } from "../byo/cli-process.js";

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "evolve-watch-snake-"));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("evolve watch after a snake run", () => {
  it("plays the best generation's game from the archive", async () => {
    const run = await runEvolve(CHECKOUT_BIN, ["run", "--task", "snake", "--generations", "0", "--workers", "1", "--out", "runs"], work, 400_000);
    expect(run.code, run.stderr).toBe(0);
    const id = /^run (run-\S+):/m.exec(run.stdout)?.[1] ?? "";
    const watched = await runEvolve(CHECKOUT_BIN, ["watch", id, "--out", "runs", "--speed", "50"], work, 120_000);
    expect(watched.code, watched.stderr).toBe(0);
    const lines = watched.stdout.split("\n");
    expect(lines[0]).toMatch(/^g0000 game-\d+ \(visible, score \d\.\d{4}\)$/);
    expect(lines[1]).toBe("@ snake head, o snake, * food");
    const steps = watched.stdout.match(/^step \d+\/(\d+)$/gm) ?? [];
    expect(steps.length).toBeGreaterThan(1);
    expect(watched.stdout).toMatch(/^\|[.o@*]{10}\|$/m);
    expect(watched.stdout).toMatch(/^end: ate \d+; (hit the wall|ran into itself|filled the board|reached the step cap)/m);
  }, 520_000);
});
