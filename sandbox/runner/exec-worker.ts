/**
 * The bootstrap of the worker thread a candidate's module runs in (code-test containers). It
 * shares the thread with the candidate, so nothing here is trusted by the main thread: every
 * message it posts is checked there, and pass or fail is decided on the host anyway. It loads
 * the module, then calls one export per message and posts what came back (or what was thrown).
 */
import { format } from "node:util";
import { parentPort, workerData } from "node:worker_threads";

const port = parentPort;
if (port === null) throw new Error("exec-worker.ts runs only as a worker thread");
// Bound before the candidate's module loads: patching MessagePort later does not reach these.
const post = port.postMessage.bind(port);
const data = (workerData ?? {}) as { url?: unknown; outputCapBytes?: unknown };
const url = String(data.url);
const outputCap = Number(data.outputCapBytes);

/**
 * Console output is counted as it is printed: a thread's stdout reaches the main thread only
 * when its event loop turns, so a flood in a loop that never yields would otherwise pile up in
 * this thread's memory unseen. Past the cap the main thread is told (it ends the thread).
 */
const write = process.stdout.write.bind(process.stdout);
let printed = 0;
let flooded = false;
const print = (text: string): void => {
  if (flooded) return;
  printed += Buffer.byteLength(text);
  if (printed <= outputCap) write(text);
  else {
    flooded = true;
    post({ type: "flood", bytes: printed });
  }
};
const log = (...args: unknown[]): void => print(`${format(...args)}\n`);
Object.assign(console, { log, info: log, debug: log, warn: log, error: log, trace: log, dir: log, table: log });
process.stdout.write = ((chunk: unknown) => (print(String(chunk)), true)) as typeof process.stdout.write;
process.stderr.write = process.stdout.write;

interface ErrorInfo {
  name: string;
  message: string;
  code: string | null;
  stack: string;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** What was thrown, in words; the module's data: URL is named solution.js. */
function describe(thrown: unknown): ErrorInfo {
  try {
    if (thrown instanceof Error) {
      const raw = thrown as Error & { code?: unknown; cause?: { code?: unknown } };
      const code = typeof raw.code === "string" ? raw.code : typeof raw.cause?.code === "string" ? raw.cause.code : null;
      // The solution's own frames only: the bootstrap's say nothing to whoever wrote it.
      const frames = String(raw.stack ?? "").split("\n").slice(1).filter((line) => line.includes(url));
      const stack = frames.slice(0, 3).join("\n").replaceAll(url, "solution.js");
      return { name: cut(String(raw.name), 100), message: cut(String(raw.message), 400), code: code === null ? null : cut(code, 60), stack: cut(stack, 400) };
    }
    return { name: "thrown value", message: cut(String(thrown), 400), code: null, stack: "" };
  } catch {
    return { name: "thrown value", message: "(it cannot be described)", code: null, stack: "" };
  }
}

// The container has no network: say so at once, rather than after a resolver's timeout.
const noNetwork = (): Promise<never> => Promise.reject(Object.assign(new TypeError("network access is not available to a solution"), { code: "ERR_NETWORK_DENIED" }));
Object.defineProperty(globalThis, "fetch", { value: noNetwork, writable: true, configurable: true });

let solution: Record<string, unknown>;
try {
  solution = (await import(url)) as Record<string, unknown>;
} catch (error) {
  post({ type: "load-error", error: describe(error) });
  process.exit(0);
}
post({ type: "loaded" });

port.on("message", (message: { id: number; export: string; args: unknown[] }) => {
  void (async () => {
    let value: unknown;
    try {
      const fn = solution[message.export];
      if (typeof fn !== "function") throw new TypeError(`the export \`${message.export}\` is not a function (it is ${fn === undefined ? "missing" : typeof fn})`);
      value = await (fn as (...args: unknown[]) => unknown)(...message.args);
    } catch (error) {
      post({ type: "result", id: message.id, ok: false, error: describe(error) });
      return;
    }
    try {
      post({ type: "result", id: message.id, ok: true, value });
    } catch (error) {
      post({ type: "result", id: message.id, ok: false, unsendable: true, error: describe(error) });
    }
  })();
});
