/**
 * The trusted in-container runner. It lives in the runtime image, outside every agent
 * tree, so an agent can change the functions it calls but never the protocol.
 *
 * It owns stdout: before any agent code loads, console output and process.stdout.write
 * are redirected to stderr. Only this file writes protocol lines (see protocol.ts).
 */
import { existsSync, mkdirSync, writeFileSync, writeSync } from "node:fs";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { dirname, join } from "node:path";
import { format } from "node:util";
import { FLUSH_TOKEN, MAX_LLM_REQUEST_BYTES, META_ENTRY, TASK_ENTRY, TESTER_ENTRY } from "./protocol.js";
import { AGENT_DIR, BUILD_DIR, WORK_DIR } from "./work-dirs.js";
import type { HostMessage, InitMessage, RunnerMessage, WireJson, WorkspaceTree } from "./protocol.js";
import type { LlmErrorCode, WireLlmResponse } from "../../harness/src/kernel/index.js";
import { createWorkspaceFiles } from "./workspace-files.js";
import { createEvaluateClient } from "./evaluate-client.js";
import { createTreeSnapshots } from "./tree-snapshot.js";
import { seededRandom } from "./seeded-random.js";
import { useCodeCache } from "./code-cache.js";

const protocolWrite = process.stdout.write.bind(process.stdout);
const toStderr = (...args: unknown[]): void => {
  process.stderr.write(format(...args) + "\n");
};
console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;
console.warn = toStderr;
console.error = toStderr;
console.trace = toStderr;
console.dir = toStderr;
console.table = toStderr;
process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) =>
  process.stderr.write(chunk, ...rest)) as typeof process.stdout.write;

// Before any agent code loads: the toolchain an agent imports then compiles from the image's
// code caches (code-cache.ts).
useCodeCache();

function send(message: RunnerMessage): Promise<void> {
  return new Promise((resolve) => protocolWrite(JSON.stringify(message) + "\n", () => resolve()));
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const stack = (error.stack ?? "").split("\n").slice(1, 4).join("\n");
    return `${error.name}: ${error.message}${stack ? "\n" + stack : ""}`.slice(0, 4000);
  }
  return String(error).slice(0, 4000);
}

/** JSON round trip: what the host will see, or an explanation of why it cannot be sent. */
function toWireJson(value: unknown): { ok: true; value: WireJson } | { ok: false; error: string } {
  try {
    const text = JSON.stringify(value === undefined ? null : value);
    return { ok: true, value: JSON.parse(text) as WireJson };
  } catch (error) {
    return { ok: false, error: `result is not JSON-serialisable: ${describeError(error)}` };
  }
}

async function loadExport(entry: string, name: string): Promise<unknown> {
  const module = (await import(pathToFileURL(join(BUILD_DIR, entry)).href)) as Record<string, unknown>;
  return module[name];
}

// ---- LLM requests travel to the host and back ------------------------------------------

const pendingLlm = new Map<number, { resolve: (r: WireLlmResponse) => void; reject: (e: Error) => void }>();
let nextLlmId = 1;

/** The contract's LlmError: an Error whose `code` says why the call was not answered. */
function llmError(code: LlmErrorCode, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function makeLlm(available: boolean) {
  return {
    available,
    complete(request: unknown): Promise<WireLlmResponse> {
      if (!available) return Promise.reject(llmError("unavailable", "no LLM is configured for this run (offline)"));
      let text: string;
      try {
        text = JSON.stringify(request === undefined ? null : request);
      } catch (error) {
        return Promise.reject(llmError("invalid_request", `LLM request refused: it is not JSON-serialisable: ${describeError(error)}`));
      }
      // Measured in UTF-16 units; a character is at most 3 bytes, so this over-counts nothing that fits.
      if (text.length > MAX_LLM_REQUEST_BYTES / 3 && Buffer.byteLength(text) > MAX_LLM_REQUEST_BYTES) {
        return Promise.reject(llmError("invalid_request", `LLM request refused: ${Buffer.byteLength(text)} bytes of JSON (the limit is ${MAX_LLM_REQUEST_BYTES})`));
      }
      const id = nextLlmId++;
      return new Promise((resolve, reject) => {
        pendingLlm.set(id, { resolve, reject });
        void send({ type: "llm", id, request: JSON.parse(text) as WireJson });
      });
    },
  };
}

function settleLlm(message: Extract<HostMessage, { type: "llm-result" }>): void {
  const pending = pendingLlm.get(message.id);
  if (!pending) return;
  pendingLlm.delete(message.id);
  if (message.ok) pending.resolve(message.response);
  else pending.reject(llmError(message.code, message.error));
}

// ---- modes ------------------------------------------------------------------------------

/** Loads every contract entry of the build and returns the `typeof` of each export; a module that does not load ends the process with a load-error. */
async function loadAll(): Promise<{ solve: unknown; exports: Record<string, string> }> {
  const exports: Record<string, string> = {};
  let solve: unknown;
  try {
    solve = await loadExport(TASK_ENTRY, "solve");
    exports["solve"] = typeof solve;
    exports["improve"] = typeof (await loadExport(META_ENTRY, "improve"));
    // The tester entry is optional: reported only when the build has one.
    if (existsSync(join(BUILD_DIR, TESTER_ENTRY))) exports["propose"] = typeof (await loadExport(TESTER_ENTRY, "propose"));
  } catch (error) {
    await send({ type: "load-error", message: describeError(error) });
    process.exit(1);
  }
  return { solve, exports };
}

async function runCheck(): Promise<void> {
  const { exports } = await loadAll();
  await send({ type: "ready", exports });
  process.exit(0);
}

function baseContext(task: string, seed: number, llmAvailable: boolean, deadline: number) {
  return {
    task,
    seed,
    deadline,
    llm: makeLlm(llmAvailable),
    random: seededRandom(seed),
    log: (message: string) => toStderr(String(message).slice(0, 2000)),
  };
}

async function startSolve(init: Extract<InitMessage, { mode: "solve" }>): Promise<(m: HostMessage) => void> {
  let solve: unknown;
  if (init.check === true) {
    // The import check and the session in one container: every entry loads, then calls are served.
    const loaded = await loadAll();
    solve = loaded.solve;
    await send({ type: "ready", exports: loaded.exports });
  } else {
    try {
      solve = await loadExport(TASK_ENTRY, "solve");
    } catch (error) {
      await send({ type: "load-error", message: describeError(error) });
      process.exit(1);
    }
    await send({ type: "ready", exports: { solve: typeof solve } });
  }
  let queue = Promise.resolve();
  return (message) => {
    if (message.type !== "call") return;
    // Calls run one at a time, in order, as the host sends them.
    queue = queue.then(async () => {
      try {
        if (typeof solve !== "function") throw new Error("solve is not a function");
        const ctx = baseContext(init.task, (init.seed ^ message.id) >>> 0, init.llmAvailable, message.deadline);
        const wire = toWireJson(await solve(message.input, ctx));
        await send(wire.ok ? { type: "result", id: message.id, ok: true, value: wire.value } : { type: "result", id: message.id, ok: false, error: wire.error });
      } catch (error) {
        await send({ type: "result", id: message.id, ok: false, error: describeError(error) });
      }
    });
  };
}

/** Loads one entry's export and says it is ready; a module that does not load ends the process with a load-error. */
async function loadAndAnnounce(entry: string, name: string): Promise<unknown> {
  let value: unknown;
  try {
    value = await loadExport(entry, name);
  } catch (error) {
    await send({ type: "load-error", message: describeError(error) });
    process.exit(1);
  }
  await send({ type: "ready", exports: { [name]: typeof value } });
  return value;
}

/**
 * Calls the agent's function once and sends what it returned, or threw, as the one result (id 0);
 * a returned result carries what `attach` gives (improve's: the agent tree).
 */
async function answerOnce(name: string, fn: unknown, call: (fn: (...args: unknown[]) => Promise<unknown>) => Promise<unknown>, attach: () => Promise<{ tree?: WorkspaceTree }> = async () => ({})): Promise<void> {
  try {
    if (typeof fn !== "function") throw new Error(`${name} is not a function`);
    const wire = toWireJson(await call(fn as (...args: unknown[]) => Promise<unknown>));
    await send(wire.ok ? { type: "result", id: 0, ok: true, value: wire.value, ...(await attach()) } : { type: "result", id: 0, ok: false, error: wire.error });
  } catch (error) {
    await send({ type: "result", id: 0, ok: false, error: describeError(error) });
  }
}

async function runImprove(init: Extract<InitMessage, { mode: "improve" }>): Promise<void> {
  const improve = await loadAndAnnounce(META_ENTRY, "improve");
  await answerOnce(
    "improve",
    improve,
    (fn) => {
      const files = createWorkspaceFiles((event) => void send({ type: "tool", ...event }));
      return fn(init.request, { ...baseContext(init.task, init.seed, init.llmAvailable, init.deadline), files, evaluate: evaluator.evaluate });
    },
    async () => {
      const tree = await treeSnapshot();
      return tree === null ? {} : { tree };
    },
  );
  // Stay alive until the host has taken the workspace out and says shutdown.
}

/** One call of the tester's `propose` with a solve call's context; the answer is the one result (id 0), then the process ends. */
async function runPropose(init: Extract<InitMessage, { mode: "propose" }>): Promise<void> {
  const propose = await loadAndAnnounce(TESTER_ENTRY, "propose");
  await answerOnce("propose", propose, (fn) => fn(init.request, baseContext(init.task, init.seed, init.llmAvailable, init.deadline)));
  // Nothing is taken out of a tester's container: the answer is all, so the process ends here.
  process.exit(0);
}

/** Write the host's files synchronously, so they are all there before `init` is handled. */
function writeFiles(message: Extract<HostMessage, { type: "files" }>): void {
  if (message.root !== "build" && message.root !== "agent") throw new Error(`unknown root ${String(message.root)}`);
  const root = join(WORK_DIR, message.root);
  mkdirSync(root, { recursive: true });
  for (const file of message.files) {
    const segments = file.path.split("/");
    if (file.path.startsWith("/") || segments.some((s) => s === "" || s === "." || s === "..")) {
      throw new Error(`unsafe path from host: ${file.path}`);
    }
    const target = join(root, ...segments);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, Buffer.from(file.base64, "base64"));
  }
}

// ---- main loop --------------------------------------------------------------------------

const treeSnapshot = createTreeSnapshots(AGENT_DIR);
const evaluator = createEvaluateClient((message) => void send(message), treeSnapshot);

let onMessage: ((message: HostMessage) => void) | null = null;
/** Messages that arrive before the agent module has loaded wait here. */
const early: HostMessage[] = [];
let started = false;

function setHandler(handler: (message: HostMessage) => void): void {
  onMessage = handler;
  for (const message of early.splice(0)) handler(message);
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  let message: HostMessage;
  try {
    message = JSON.parse(line) as HostMessage;
  } catch {
    toStderr("runner: ignoring a stdin line that is not JSON");
    return;
  }
  if (message.type === "shutdown") {
    // Straight to the file descriptor, after everything already written: the host's sign that stderr is whole.
    if (typeof message.flush === "string" && FLUSH_TOKEN.test(message.flush)) writeSync(2, `${message.flush}\n`);
    process.exit(0);
  }
  if (message.type === "files" && !started) {
    try {
      writeFiles(message);
    } catch (error) {
      toStderr(`runner: could not write the host's files: ${describeError(error)}`);
      process.exit(70);
    }
    return;
  }
  if (message.type === "llm-result") return settleLlm(message);
  if (message.type === "evaluate-result") return evaluator.settle(message);
  if (message.type === "init" && !started) {
    started = true;
    if (message.mode === "check") void runCheck();
    else if (message.mode === "solve") void startSolve(message).then(setHandler);
    else if (message.mode === "propose") void runPropose(message);
    else void runImprove(message);
    return;
  }
  if (onMessage) onMessage(message);
  else early.push(message);
});
lines.on("close", () => process.exit(0));
