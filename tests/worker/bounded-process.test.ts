/**
 * BoundedProcess's time limit counts the job's CPU time (harness/src/worker/cpu-time.ts):
 * a spinning job stops near its limit, an idle one at the wall-clock backstop, and a job
 * that waited for a core is not a hang.
 */
import { describe, expect, it } from "vitest";
import { BoundedProcess, WALL_BACKSTOP } from "../../harness/src/worker/index.js";
import { cpuTimeMs } from "../../harness/src/worker/cpu-time.js";

const ENTRY = new URL("./spin-or-idle.mjs", import.meta.url).pathname;
type Message = { answer: string };
type Job = { kind: "spin" | "idle" | "now" };

async function started(): Promise<BoundedProcess<Message, Job>> {
  const process = new BoundedProcess<Message, Job>({ entry: ENTRY, memoryMb: 64 });
  expect(await process.next(30_000)).toEqual({ kind: "message", message: { answer: "ready" } });
  return process;
}

// CPU time is read from Linux's /proc; in CI (Linux) this never skips: elsewhere it would fail there, loudly.
describe.runIf(process.platform === "linux" || process.env["CI"] !== undefined)("BoundedProcess's time limit", () => {
  it("reads a process's CPU time, which grows while it computes", () => {
    const before = cpuTimeMs(process.pid)!;
    // Spins for 300 ms of this process's CPU by Node's own count, not of wall time: on a
    // loaded machine 300 ms of wall time gave it only 190 ms of CPU, and the test failed.
    const start = process.cpuUsage();
    const used = (): number => {
      const u = process.cpuUsage(start);
      return (u.user + u.system) / 1000;
    };
    while (used() < 300);
    // /proc counts in ticks of 10 ms: the two counts agree to within a few of them.
    expect(cpuTimeMs(process.pid)! - before).toBeGreaterThanOrEqual(250);
    expect(cpuTimeMs(2 ** 22 + 7)).toBeNull();
  });

  it("stops a spinning job once it has used its CPU time, and an idle one at the wall backstop", async () => {
    const spinner = await started();
    const spinStart = performance.now();
    expect(await spinner.next(500, { kind: "spin" })).toEqual({ kind: "timeout" });
    const spinMs = performance.now() - spinStart;
    await spinner.kill();
    expect(spinMs).toBeGreaterThanOrEqual(500);
    expect(spinMs).toBeLessThan(500 * WALL_BACKSTOP);

    const idler = await started();
    const idleStart = performance.now();
    expect(await idler.next(300, { kind: "idle" })).toEqual({ kind: "timeout" });
    expect(performance.now() - idleStart).toBeGreaterThanOrEqual(300 * WALL_BACKSTOP - 50);
    await idler.kill();
  }, 60_000);

  it("answers a job that waited for a core longer than its limit: the wall time was not its own", async () => {
    const worker = await started();
    // The harness's own thread is busy past the limit, so the answer waits unread; the worker used almost no CPU.
    const answer = worker.next(200, { kind: "now" });
    const until = performance.now() + 600;
    while (performance.now() < until);
    expect(await answer).toEqual({ kind: "message", message: { answer: "now" } });
    await worker.kill();
  });
});
