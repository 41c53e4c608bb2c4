/**
 * The trusted entry of a code-test container (exec-protocol.ts): type-check a candidate's
 * TypeScript answer, load it in a worker thread, call its exports with the tests' arguments.
 *
 * Node runs it under its permission model (sandbox/src/sessions/exec-session.ts gives the
 * flags): the file system is readable only where the runner, the compiler and its code cache
 * live, and writable nowhere; no child process. That is a second wall inside the container,
 * so that a solution reaching for the file system is told "denied" (and scored 0) instead of
 * finding an image to read; the container stays the boundary.
 *
 * The compiler starts loading at once, before the request arrives: a warm-pool container
 * has it ready when it is handed out.
 */
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { format } from "node:util";
import type TypeScript from "typescript";
import { compileSolution } from "./exec-compile.js";
import { EXEC_WORKER, STOPPING_KINDS, type ExecMessage, type ExecRequest } from "./exec-protocol.js";
import { OutputTap, SolutionThread, type Ending } from "./exec-thread.js";
import { encodeValue } from "./value-wire.js";
import { useCodeCache } from "./code-cache.js";

const protocolWrite = process.stdout.write.bind(process.stdout);
const toStderr = (...args: unknown[]): void => void process.stderr.write(`${format(...args)}\n`);
console.log = toStderr;
console.info = toStderr;
console.warn = toStderr;
console.error = toStderr;

// The compiler is required, not imported: an ES module's import of a CommonJS package first
// scans its whole source for export names, 9 MB here, which cost more CPU than loading it (~0.6
// s of ~0.9 s in the container); and it compiles from the image's code cache (code-cache.ts).
useCodeCache();
const compiler: Promise<typeof TypeScript | Error> = new Promise((resolve) => {
  try {
    resolve(createRequire(import.meta.url)("typescript") as typeof TypeScript);
  } catch (error) {
    resolve(error instanceof Error ? error : new Error(String(error)));
  }
});

function send(message: ExecMessage): Promise<void> {
  return new Promise((resolve) => protocolWrite(`${JSON.stringify(message)}\n`, () => resolve()));
}

async function finish(tap: OutputTap | null): Promise<never> {
  await send({ type: "done", output: tap?.excerpt ?? "", outputBytes: tap?.bytes ?? 0 });
  process.exit(0);
}

/** Loads the module in a fresh thread; null when it loaded, else why not. */
async function freshThread(request: ExecRequest, url: string, tap: OutputTap): Promise<{ thread: SolutionThread; failed: Ending | null }> {
  const thread = new SolutionThread(new URL(`./${EXEC_WORKER}`, import.meta.url), url, request.workerMemoryMb, tap);
  const loaded = await thread.load(request.loadTimeoutMs);
  return { thread, failed: loaded.ok ? null : loaded };
}

/** Calls every export in order; a stopping kind ends the run (the host marks the rest as not run). */
async function runCalls(request: ExecRequest, js: string, tap: OutputTap): Promise<void> {
  const url = `data:text/javascript;base64,${Buffer.from(js, "utf8").toString("base64")}`;
  let started = Date.now();
  let { thread, failed } = await freshThread(request, url, tap);
  if (failed !== null && !failed.ok) {
    await send({ type: "loaded", ok: false, kind: failed.kind, reason: failed.reason, ms: Date.now() - started });
    return;
  }
  await send({ type: "loaded", ok: true, ms: Date.now() - started });
  for (const call of request.calls) {
    // A thread an uncaught error ended is replaced; the module's top level runs again in it.
    if (thread.dead) {
      ({ thread, failed } = await freshThread(request, url, tap));
      if (failed !== null && !failed.ok) {
        await send({ type: "result", id: call.id, ok: false, kind: failed.kind, reason: `reloading the module: ${failed.reason}`, ms: 0 });
        if (STOPPING_KINDS.includes(failed.kind)) return;
        continue;
      }
    }
    started = Date.now();
    const ending = await thread.call(call.id, call.export, call.args, request.callTimeoutMs);
    const ms = Date.now() - started;
    if (!ending.ok) {
      await send({ type: "result", id: call.id, ok: false, kind: ending.kind, reason: ending.reason, ms });
      if (STOPPING_KINDS.includes(ending.kind)) return;
      continue;
    }
    const encoded = encodeValue(ending.value, request.valueCapBytes);
    await send(
      encoded.ok
        ? { type: "result", id: call.id, ok: true, value: encoded.value, ms }
        : { type: "result", id: call.id, ok: false, kind: encoded.reason.includes("larger") ? "too_large" : "unsendable", reason: encoded.reason, ms },
    );
  }
  await thread.dispose();
}

async function handle(request: ExecRequest): Promise<never> {
  await send({ type: "started" });
  const started = Date.now();
  const ts = await compiler;
  if (ts instanceof Error) throw ts;
  let compiled: ReturnType<typeof compileSolution>;
  try {
    compiled = compileSolution(ts, request.source, request.declarations, request.exports);
  } catch (error) {
    // A checker that overflows its stack on the source is the source's doing.
    compiled = { ok: false, errors: [`the type checker failed on this source: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`.slice(0, 400)] };
  }
  if (!compiled.ok) {
    await send({ type: "compiled", ok: false, errors: compiled.errors, ms: Date.now() - started });
    return finish(null);
  }
  await send({ type: "compiled", ok: true, ms: Date.now() - started });
  const tap = new OutputTap(request.outputCapBytes);
  await runCalls(request, compiled.js, tap);
  return finish(tap);
}

let taken = false;
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (taken) return;
  taken = true;
  let request: ExecRequest;
  try {
    request = JSON.parse(line) as ExecRequest;
  } catch {
    toStderr("exec runner: the request is not JSON");
    process.exit(70);
  }
  handle(request).catch((error: unknown) => {
    toStderr(`exec runner failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(70);
  });
});
