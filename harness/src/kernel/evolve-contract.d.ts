/**
 * The contract between the harness and an agent, as an ambient module.
 *
 * Agents import these types with `import type { ... } from "@evolve/contract"`; the import
 * is erased at emit, so no runtime module exists. The harness adds this very file to every
 * compile of an agent tree, so an agent cannot redefine the contract it is checked against.
 *
 * Entry points of an agent tree (paths relative to the tree's root):
 *   task/index.ts  exports `solve: SolveFn`
 *   meta/index.ts  exports `improve: ImproveFn`
 *   tester/index.ts  exports `propose: ProposeFn` (optional; an arena run needs it)
 */
declare module "@evolve/contract" {
  /** Plain JSON: everything that crosses the container boundary is this. */
  export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

  /** A tool the model may call: OpenAI-style function calling. */
  export interface LlmTool {
    /** 1 to 64 letters, digits, `_` or `-`. */
    name: string;
    description?: string;
    /** JSON Schema of the arguments (an object schema), nested at most 32 deep. */
    parameters?: { [key: string]: Json };
  }

  /** "auto" (the default when tools are given): the model decides; "required": it must call one; or this very tool. */
  export type LlmToolChoice = "auto" | "none" | "required" | { name: string };

  /** One call the model made. */
  export interface LlmToolCall {
    /** Send it back as `toolCallId` with the call's result. */
    id: string;
    name: string;
    /** The arguments as the model wrote them: usually JSON text, but not always; parse them yourself. */
    arguments: string;
  }

  /**
   * A chat message. An assistant message sent back carries the tool calls the model made;
   * each of them must be answered by a `tool` message right after it, before any other message.
   */
  export type LlmMessage =
    | { role: "system" | "user"; content: string }
    | { role: "assistant"; content: string; toolCalls?: LlmToolCall[] }
    | { role: "tool"; toolCallId: string; content: string };

  export interface LlmRequest {
    messages: LlmMessage[];
    temperature?: number;
    maxTokens?: number;
    /** At most 128, each name once. */
    tools?: LlmTool[];
    /** Only with tools. */
    toolChoice?: LlmToolChoice;
  }

  /** Why the reply ended: "length" when it was cut at maxTokens (tool call arguments may then be cut too). */
  export type LlmFinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "other";

  export interface LlmResponse {
    /** The reply's text; "" when the model only called tools. */
    content: string;
    /** Empty when the model called no tool. */
    toolCalls: LlmToolCall[];
    finishReason: LlmFinishReason;
    promptTokens: number;
    completionTokens: number;
  }

  /**
   * Why `complete` rejected (the rejection is an `LlmError`). Nothing was sent to the model
   * unless the code is "endpoint_failed" or "tools_unsupported".
   * - invalid_request: the request is malformed or too large (the message says which field and why)
   * - unavailable: no LLM in this run (offline), or the generation is over
   * - busy: too many calls waiting at once; wait for some to finish
   * - budget_exhausted: the token or dollar budget cannot fit this call
   * - tools_unsupported: the endpoint answered HTTP 400 to a request with tools; retry without them
   * - endpoint_failed: the endpoint failed (HTTP error, network, timeout, bad response) after retries
   * - replay_divergence: `evolve replay` served recorded answers and this request differs from the recorded one
   * - internal: the harness failed to answer
   */
  export type LlmErrorCode =
    | "invalid_request"
    | "unavailable"
    | "busy"
    | "budget_exhausted"
    | "tools_unsupported"
    | "endpoint_failed"
    | "replay_divergence"
    | "internal";

  /** What `complete` rejects with. */
  export interface LlmError extends Error {
    readonly code: LlmErrorCode;
  }

  /** A chat model reached through the harness's broker over stdio. */
  export interface LlmClient {
    /** False in an offline run: `complete` then rejects with code "unavailable". */
    readonly available: boolean;
    /** One chat completion; rejects with an `LlmError` (a message and a code) when it is not answered. */
    complete(request: LlmRequest): Promise<LlmResponse>;
  }

  export interface SolveContext {
    /** Name of the task being solved (one agent serves every task). */
    readonly task: string;
    readonly llm: LlmClient;
    /** A line for the harness's log of this container (stderr, capped). */
    log(message: string): void;
    /** Epoch milliseconds by which this call must return; the harness kills the container after it. */
    readonly deadline: number;
    /** Seeded PRNG in [0, 1): the same seed gives the same sequence. */
    random(): number;
    readonly seed: number;
  }

  export type SolveFn = (input: Json, ctx: SolveContext) => Promise<Json>;

  /** Visible feedback about one instance of the parent's evaluation. */
  export interface InstanceFeedback {
    id: string;
    score: number;
    feedback: string;
  }

  export interface LineageStep {
    id: string;
    score: number | null;
    summary: string;
  }

  /**
   * What became of an earlier child of the parent or of a close relative: from the harness's
   * own records (never from a file an agent wrote), never held-out data.
   */
  export type AttemptOutcome =
    /** Valid, evaluated on the whole visible split: its visible score and the change from its parent's (null when the parent has no whole score). */
    | { kind: "valid"; score: number; delta: number | null }
    /**
     * Valid, but its evaluation stopped after `evaluated` of the `of` visible instances: with the
     * run's stated confidence its visible score could not reach `target` (its parent's, or the
     * task's bar). It has no whole score and is not a parent.
     */
    | { kind: "stopped"; evaluated: number; of: number; target: number | null }
    /** It failed at `stage` with `code` (policy `empty_diff`: it changed nothing). */
    | { kind: "invalid"; stage: string; code: string }
    /** Its tree was byte for byte generation `of`'s, so it was not judged again. */
    | { kind: "duplicate"; of: string };

  /** One earlier attempt near the generation being made. */
  export interface Attempt {
    /** The child. */
    id: string;
    /** The generation it was made from. */
    parent: string;
    /**
     * "sibling": made from the same parent as this generation; "parent_sibling": made from the
     * parent's own parent (like the parent itself); "cousin": made from one of the parent's siblings.
     */
    relation: "sibling" | "parent_sibling" | "cousin";
    /** Its meta agent's one-line summary (capped). */
    summary: string;
    outcome: AttemptOutcome;
  }

  export interface ImproveRequest {
    task: { name: string; description: string; metric: string };
    /**
     * Which entry point this generation is judged by: "solver" (task/, the default when
     * absent) or "tester" (tester/, a test generation of an arena run). For a tester,
     * `feedback.instances` are the parent's proposals: score 1 when one entered the arena
     * suite, 0 when not, and the reason in `feedback`.
     */
    role?: "solver" | "tester";
    /** The generation being created and its parent (whose tree is in the workspace). */
    generation: { id: string; parent: string; depth: number };
    seed: number;
    feedback: {
      /** Parent's aggregate score on the visible split, null when it was not evaluated. */
      score: number | null;
      instances: InstanceFeedback[];
      /** Capped excerpt of the parent's evaluation stderr. */
      stderr: string;
    };
    /** From the seed to the parent, oldest first. */
    lineage: LineageStep[];
    /**
     * What the harness learnt of the model when the run started (its probe; `evolve doctor
     * --model` shows the same): mode "tools" when the endpoint takes tool calls (native, or
     * written in the text), "text" when it refuses tools or the model ignores them, and why.
     * Absent offline, and when the run was not probed.
     */
    llm?: { model: string; mode: "tools" | "text"; reason: string };
    /**
     * What was already tried near this parent, closest first (siblings, then the parent's
     * siblings, then cousins), newest first within each, at most the run's `--attempts`. Absent
     * or empty when the run shows none (`--attempts 0`, arena runs, runs before this field).
     */
    attempts?: Attempt[];
    budget: {
      /** Tokens the meta agent may still spend in this generation; null when unlimited. */
      llmTokens: number | null;
      /** Epoch milliseconds by which `improve` must return. */
      deadline: number;
      /** How many times `ctx.evaluate` may run in this generation (a refused call does not count). */
      evaluations: number;
    };
  }

  /** File tools confined to the agent tree; paths are relative, `/`-separated. */
  export interface WorkspaceFiles {
    /** Every file of the agent tree, sorted. */
    list(): Promise<string[]>;
    read(path: string): Promise<string>;
    /** Creates or overwrites; parent folders are created. */
    write(path: string, content: string): Promise<void>;
    /** Replaces exactly one occurrence of `search`; rejects when it occurs zero or several times. */
    replace(path: string, search: string, replacement: string): Promise<void>;
    delete(path: string): Promise<void>;
  }

  /** Which visible instances `ctx.evaluate` runs the draft on; held-out ones are never reachable. */
  export interface EvaluateRequest {
    /** "stage1" (the default): the small first-stage subset; "visible": the whole visible split; or visible instance ids. */
    instances?: "stage1" | "visible" | string[];
  }

  /** What `ctx.evaluate` learnt about the draft; `remaining` is how many calls this generation has left. */
  export type EvaluateResult =
    /** Nothing was run and nothing counted: the request was malformed or asked for ids that are not visible instances, the budget is spent, or the deadline is too near. */
    | { outcome: "refused"; reason: string; remaining: number }
    /** The draft failed a check (the same checks as a child's, from taking the workspace out to the import check); nothing was evaluated. */
    | { outcome: "invalid"; stage: "extract" | "policy" | "compile" | "signature" | "import"; code: string; message: string; remaining: number }
    | { outcome: "evaluated"; score: number; instances: InstanceFeedback[]; stderr: string; remaining: number };

  export interface ImproveContext extends SolveContext {
    readonly files: WorkspaceFiles;
    /** Check and evaluate the workspace as it is now, on visible instances, in fresh containers. */
    evaluate(request?: EvaluateRequest): Promise<EvaluateResult>;
  }

  export interface ImproveReport {
    /** One line: what changed and why (shown in lineages). */
    summary: string;
    changedFiles: string[];
  }

  export type ImproveFn = (request: ImproveRequest, ctx: ImproveContext) => Promise<ImproveReport>;

  /** One test of the arena suite, as a test agent sees it. */
  export interface ArenaTestView {
    id: string;
    /** The proposal the test was made from (never the oracle's verdict on it). */
    proposal: Json;
    /** How many candidates of the current code population pass and fail it. */
    passedBy: number;
    failedBy: number;
  }

  /** What a test agent sees: never held-out data, never the oracle's code. */
  export interface ProposeRequest {
    task: { name: string; description: string; metric: string };
    /** What one proposal is (the task oracle's words) and the caps: at most `perRound` proposals, each at most `maxBytes` as JSON. */
    proposal: { description: string; perRound: number; maxBytes: number };
    round: number;
    /** The test generation proposing and its parent (null for the seed's tester). */
    generation: { id: string; parent: string | null };
    seed: number;
    /** The visible split's instances as the task's files hold them. */
    visible: Json[];
    /** The current arena suite. */
    suite: ArenaTestView[];
    /** The current code population: each candidate and the arena tests it fails. */
    population: { id: string; failing: string[] }[];
  }

  /** Proposes new instances (each must match `request.proposal`); extra or malformed ones are discarded with a reason. */
  export type ProposeFn = (request: ProposeRequest, ctx: SolveContext) => Promise<Json[]>;
}
