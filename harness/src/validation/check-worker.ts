/**
 * The body of the check worker: a worker_threads thread with a heap cap (resourceLimits),
 * holding the one warm TreeCompiler. It runs one candidate's static checks at a time; the
 * harness stops it on the wall-clock limit and replaces it after any limit.
 */
import { getHeapStatistics } from "node:v8";
import { parentPort } from "node:worker_threads";
import { EvolveError } from "../errors/index.js";
import type { CheckJob, CheckWorkerMessage } from "./check-protocol.js";
import { runStaticChecks, type StaticPhase } from "./static-checks.js";
import { TreeCompiler } from "./tree-compiler.js";

const port = parentPort;
if (port === null) throw new Error("check-worker.ts runs only as a worker thread");
const send = (message: CheckWorkerMessage): void => port.postMessage(message);

// Resource exhaustion and TypeScript's own assertions come from what the tree makes the
// checker do; any other exception is a bug of ours and must not be blamed on the agent.
function checkerBroke(error: unknown): boolean {
  if (error instanceof RangeError) return true;
  return error instanceof Error && error.message.startsWith("Debug Failure");
}

const heapMb = (): number => Math.round(getHeapStatistics().total_heap_size / (1024 * 1024));

const compiler = new TreeCompiler();
compiler.warm();
send({ type: "ready", heapMb: heapMb() });

port.on("message", (job: CheckJob) => {
  let phase: StaticPhase = "policy";
  runStaticChecks(compiler, job.request, (p) => {
    phase = p;
    send({ type: "phase", id: job.id, phase: p });
  }).then(
    (outcome) => send({ type: "done", id: job.id, outcome, heapMb: heapMb() }),
    (error: unknown) => {
      if (checkerBroke(error)) {
        send({ type: "checker_crash", id: job.id, phase, message: error instanceof Error ? error.message.split("\n")[0]!.slice(0, 300) : String(error) });
        return;
      }
      const evolve = error instanceof EvolveError ? error : null;
      send({
        type: "harness_error",
        id: job.id,
        code: evolve?.code ?? "internal",
        message: error instanceof Error ? error.message : String(error),
        hint: evolve?.hint ?? null,
        stack: error instanceof Error ? (error.stack ?? null) : null,
      });
    },
  );
});
