/**
 * The stdio protocol between the host and the trusted in-container runner.
 *
 * One JSON object per line in each direction. The runner owns stdout: agent code's
 * console output is redirected to stderr, so any stdout line that is not one of these
 * messages is a protocol violation the host treats as hostile.
 *
 * Layout inside every container (a per-container volume mounted at WORK_DIR):
 *   /work/agent  the agent's TypeScript tree (self-modification only; the meta agent edits it)
 *   /work/build  the emitted JS of the agent that is being run (its package.json says "module")
 */

import type { WireLlmAnswer } from "../src/llm-wire.js";

export const WORK_DIR = "/work";
export const AGENT_DIR = "/work/agent";
export const BUILD_DIR = "/work/build";
/** Entry modules inside BUILD_DIR, emitted from task/index.ts, meta/index.ts and (optional) tester/index.ts. */
export const TASK_ENTRY = "task/index.js";
export const META_ENTRY = "meta/index.js";
export const TESTER_ENTRY = "tester/index.js";

export type RunnerMode = "check" | "solve" | "improve" | "propose";

/** Plain JSON, as on the wire. */
export type WireJson = null | boolean | number | string | WireJson[] | { [key: string]: WireJson };

/**
 * The largest LLM request (as JSON) the runner sends on: it refuses a larger one itself, so
 * one oversized request is a refusal, not a step towards the stdout cap that ends the
 * container (8 MiB for all its output together). The broker's caps on a request are lower.
 */
export const MAX_LLM_REQUEST_BYTES = 1024 * 1024;

// ---- host → runner ---------------------------------------------------------------------

/** First line the host sends; says what the runner is for. */
export type InitMessage =
  | { type: "init"; mode: "check" }
  | { type: "init"; mode: "solve"; task: string; seed: number; llmAvailable: boolean }
  | {
      type: "init";
      mode: "improve";
      task: string;
      seed: number;
      llmAvailable: boolean;
      deadline: number;
      request: WireJson;
    }
  /** Arena: one call of the tester's `propose`; `request` is the harness's ProposeRequest. */
  | {
      type: "init";
      mode: "propose";
      task: string;
      seed: number;
      llmAvailable: boolean;
      deadline: number;
      request: WireJson;
    };

/** Solve mode: one call of the task agent. */
export interface CallMessage {
  type: "call";
  id: number;
  input: WireJson;
  deadline: number;
}

/** The broker's answer to an `llm` message: a response, or a refusal the agent's call rejects with. */
export type LlmResultMessage = { type: "llm-result"; id: number } & WireLlmAnswer;

export interface ShutdownMessage {
  type: "shutdown";
}

/**
 * Files the host puts into the workspace before `init` (the build, the agent tree): the
 * runner writes them before any agent code loads. Faster than Docker's archive upload,
 * and only trusted data travels this way; what comes back out goes through the host's
 * safe extractor instead.
 */
export interface FilesMessage {
  type: "files";
  /** Folder under WORK_DIR: "build" or "agent". */
  root: "build" | "agent";
  files: { path: string; base64: string }[];
}

/**
 * Improve mode: the host's answer to an evaluate message. `result` is the contract's
 * EvaluateResult (refused, invalid or evaluated); the runner hands it to the agent as it is.
 */
export interface EvaluateResultMessage {
  type: "evaluate-result";
  id: number;
  result: WireJson;
}

export type HostMessage = InitMessage | CallMessage | LlmResultMessage | ShutdownMessage | FilesMessage | EvaluateResultMessage;

// ---- runner → host ---------------------------------------------------------------------

/**
 * The agent module(s) loaded; `exports` maps each contract export to its `typeof`. In check
 * mode `propose` is there only when the build has tester/index.js.
 */
export interface ReadyMessage {
  type: "ready";
  exports: Record<string, string>;
}

/** Loading the agent module threw (message and the first stack lines). */
export interface LoadErrorMessage {
  type: "load-error";
  message: string;
}

/** Answer to a call (solve mode) or to the improve or propose request (improve and propose modes, id 0). */
export type ResultMessage =
  | { type: "result"; id: number; ok: true; value: WireJson }
  | { type: "result"; id: number; ok: false; error: string };

/**
 * The agent asks the host's LLM broker for a completion. `request` is what the agent passed,
 * unchecked: the broker parses it (sandbox/src/llm-wire.ts) and refuses a malformed one.
 */
export interface LlmCallMessage {
  type: "llm";
  id: number;
  request: WireJson;
}

/** A workspace file tool call by the meta agent, for the transcript. */
export interface ToolMessage {
  type: "tool";
  name: "list" | "read" | "write" | "replace" | "delete";
  path: string | null;
  ok: boolean;
  error: string | null;
}

/**
 * Improve mode: the meta agent asks the host to check and evaluate its workspace as it is
 * now (ctx.evaluate). `request` is the agent's EvaluateRequest, unchecked: the host parses it.
 */
export interface EvaluateCallMessage {
  type: "evaluate";
  id: number;
  request: WireJson;
}

export type RunnerMessage = ReadyMessage | LoadErrorMessage | ResultMessage | LlmCallMessage | ToolMessage | EvaluateCallMessage;
