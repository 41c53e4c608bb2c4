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
 */
declare module "@evolve/contract" {
  /** Plain JSON: everything that crosses the container boundary is this. */
  export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

  export interface LlmMessage {
    role: "system" | "user" | "assistant";
    content: string;
  }

  export interface LlmRequest {
    messages: LlmMessage[];
    temperature?: number;
    maxTokens?: number;
  }

  export interface LlmResponse {
    content: string;
    promptTokens: number;
    completionTokens: number;
  }

  /** A chat model reached through the harness's broker over stdio. */
  export interface LlmClient {
    /** False in an offline run: `complete` then rejects. */
    readonly available: boolean;
    /** One chat completion; rejects with a message when the budget is spent. */
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

  export interface ImproveRequest {
    task: { name: string; description: string; metric: string };
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
}
