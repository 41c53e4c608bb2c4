/**
 * The stdio protocol between the host and the trusted in-container runner: one JSON object
 * per line in each direction. The runner owns stdout (agent output goes to stderr), so a
 * stdout line that is not a `RunnerMessage` is a protocol violation the host treats as
 * hostile. Host → runner messages are trusted and typed only; runner → host messages are
 * a zod schema and its type under one name, parsed on the host. The runner imports only
 * types from here (erased when it is transpiled into the image); its constants live beside
 * it in sandbox/runner/protocol.ts.
 */
import { z } from "zod";
import type { WireLlmAnswer } from "./llm-wire.js";
import { WireJson } from "./wire-json.js";

export type RunnerMode = "check" | "solve" | "improve" | "propose";

// ---- host → runner ---------------------------------------------------------------------

/** First line the host sends; says what the runner is for. */
export type InitMessage =
  | { type: "init"; mode: "check" }
  /**
   * With `check`, the session first loads the whole agent as check mode does (solve, improve,
   * propose when the build has a tester) and reports every export in `ready`: the import
   * check and the first evaluation session in one container.
   */
  | { type: "init"; mode: "solve"; task: string; seed: number; llmAvailable: boolean; check?: boolean }
  | { type: "init"; mode: "improve"; task: string; seed: number; llmAvailable: boolean; deadline: number; request: WireJson }
  /** Arena: one call of the tester's `propose`; `request` is the harness's ProposeRequest. */
  | { type: "init"; mode: "propose"; task: string; seed: number; llmAvailable: boolean; deadline: number; request: WireJson };

/** Solve mode: one call of the task agent. */
export interface CallMessage {
  type: "call";
  id: number;
  input: WireJson;
  deadline: number;
}

/** The broker's answer to an `llm` message: a response, or a refusal the agent's call rejects with. */
export type LlmResultMessage = { type: "llm-result"; id: number } & WireLlmAnswer;

/**
 * Ends the runner. With `flush`, it first writes that token as a line of its own to stderr:
 * everything it wrote to stderr before has then reached the host, which can take the stderr
 * and leave Docker's teardown of the container to the background (sandbox/src/sessions/runner-channel.ts `releaseChannel`).
 */
export interface ShutdownMessage {
  type: "shutdown";
  flush?: string;
}

/**
 * Files the host puts into the workspace before `init` (the build, the agent tree): the
 * runner writes them before any agent code loads. Faster than Docker's archive upload,
 * and only trusted data travels this way; what comes back out goes through the host's
 * safe extractor instead.
 */
export interface FilesMessage {
  type: "files";
  /** Folder under the work dir: "build" or "agent". */
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

/** The agent module(s) loaded; `exports` maps each contract export to its `typeof` (check mode: `propose` only when the build has tester/index.js). */
export const ReadyMessage = z.object({ type: z.literal("ready"), exports: z.record(z.string(), z.string()) });
export type ReadyMessage = z.infer<typeof ReadyMessage>;

/** Loading the agent module threw (message and the first stack lines). */
export const LoadErrorMessage = z.object({ type: z.literal("load-error"), message: z.string() });
export type LoadErrorMessage = z.infer<typeof LoadErrorMessage>;

/**
 * Improve mode: the agent tree as it was when the runner sent an evaluate request or improve's
 * result, so the host need not take it through Docker's archive (sandbox/runner/tree-snapshot.ts).
 * Hostile like the archive: the host writes it only through its safe extractor's rules and caps
 * (sandbox/src/extract/tree-extract.ts). Absent: the host takes the tree from the volume.
 */
export const WorkspaceTree = z.object({
  dirs: z.array(z.string()),
  files: z.array(z.object({ path: z.string(), base64: z.string() })),
});
export type WorkspaceTree = z.infer<typeof WorkspaceTree>;

/** Answer to a call (solve mode) or to the improve or propose request (id 0); improve's carries the tree. */
export const ResultMessage = z.union([
  z.object({ type: z.literal("result"), id: z.number().int(), ok: z.literal(true), value: WireJson, tree: WorkspaceTree.optional() }),
  z.object({ type: z.literal("result"), id: z.number().int(), ok: z.literal(false), error: z.string() }),
]);
export type ResultMessage = z.infer<typeof ResultMessage>;

/** The agent asks the broker for a completion; `request` is the broker's to parse (a malformed one is refused to the agent, not a violation). */
export const LlmCallMessage = z.object({ type: z.literal("llm"), id: z.number().int(), request: z.unknown() });
export type LlmCallMessage = z.infer<typeof LlmCallMessage>;

/** A workspace file tool call by the meta agent, for the transcript. */
export const ToolMessage = z.object({
  type: z.literal("tool"),
  name: z.enum(["list", "read", "write", "replace", "delete"]),
  path: z.string().nullable(),
  ok: z.boolean(),
  error: z.string().nullable(),
});
export type ToolMessage = z.infer<typeof ToolMessage>;

/** Improve mode: ctx.evaluate of the workspace as it is now; `request` is the host's to parse. */
export const EvaluateCallMessage = z.object({ type: z.literal("evaluate"), id: z.number().int(), request: z.unknown(), tree: WorkspaceTree.optional() });
export type EvaluateCallMessage = z.infer<typeof EvaluateCallMessage>;

/** Every line the runner may print; anything else is a protocol violation. */
export const RunnerMessage = z.union([ReadyMessage, LoadErrorMessage, ResultMessage, LlmCallMessage, ToolMessage, EvaluateCallMessage]);
export type RunnerMessage = z.infer<typeof RunnerMessage>;
