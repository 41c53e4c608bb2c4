/**
 * The body of the check worker: a child process of the harness with a heap cap
 * (--max-old-space-size), holding the one warm TreeCompiler. It runs one candidate's static
 * checks at a time; the harness kills it on the wall-clock limit and replaces it after any
 * limit. A process, not a thread: V8 can abort a whole process on an allocation it cannot
 * satisfy near the heap limit, and that must never be the harness.
 */
import { getHeapStatistics } from "node:v8";
import { EvolveError } from "../kernel/index.js";
import type { CheckJob, CheckWorkerMessage } from "./check-protocol.js";
import { runStaticChecks, type StaticPhase } from "./static-checks.js";
import { TreeCompiler } from "./tree-compiler.js";
import { saveCompilerCodeCache } from "./compiler-code-cache.js";

if (process.send === undefined) throw new Error("check-worker.ts runs only as a child process with an IPC channel");
const send = (message: CheckWorkerMessage): void => void process.send?.(message);
// The harness gone (even SIGKILLed) closes the channel: nothing is left behind.
process.on("disconnect", () => process.exit(0));

// Resource exhaustion and TypeScript's own assertions come from what the tree makes the
// checker do; any other exception is a bug of ours and must not be blamed on the agent.
function checkerBroke(error: unknown): boolean {
  if (error instanceof RangeError) return true;
  return error instanceof Error && error.message.startsWith("Debug Failure");
}

const heapMb = (): number => Math.round(getHeapStatistics().total_heap_size / (1024 * 1024));

// What `ps` and `top` show for this process.
process.title = "evolve-check";
const compiler = new TreeCompiler();
compiler.warm();
// After the warm-up V8 has compiled most of the compiler: the next worker starts from that.
// Before "ready", so a worker closed at once still leaves a whole cache.
saveCompilerCodeCache();
send({ type: "ready", heapMb: heapMb() });

process.on("message", (job: CheckJob) => {
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
