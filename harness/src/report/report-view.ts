/**
 * The shape of the data the report page embeds, shared by the host that builds it
 * (report-data.ts) and the page script that reads it (page/report-page.ts). Types only and
 * no imports, so the page, which is checked against the browser's library instead of
 * Node's, can import it without pulling in any host code.
 */

/** A circle packing to draw: the best-scoring instance of a generation that has one. */
export interface PackingView {
  readonly instance: string;
  readonly split: string;
  readonly score: number;
  readonly circles: [number, number, number][];
}

/** A recorded grid episode to animate (a snake game): per frame, per layer, the cells it covers (y × width + x). */
export interface EpisodeView {
  readonly instance: string;
  readonly split: string;
  readonly score: number;
  readonly width: number;
  readonly height: number;
  readonly layers: { readonly name: string; readonly glyph: string; readonly head?: string | undefined }[];
  readonly frames: number[][][];
  readonly truncated: number;
  readonly end: string;
}

/** One node of the report's tree and its detail panel. */
export interface NodeView {
  readonly id: string;
  readonly parent: string | null;
  readonly depth: number;
  readonly valid: boolean;
  /** The earlier generation whose tree this one is (not judged again), or null. */
  readonly duplicateOf: string | null;
  readonly stage: string | null;
  readonly code: string | null;
  readonly message: string | null;
  readonly where: string | null;
  readonly visible: number | null;
  readonly heldout: number | null;
  readonly stage1: number | null;
  /** Why its race stopped early (no whole visible score), or why its held-out split was not scored; null: neither. */
  readonly evaluationNote: string | null;
  readonly summary: string | null;
  /** The meta agent's spend. */
  readonly costUsd: number | null;
  readonly tokens: { readonly prompt: number; readonly completion: number };
  /** The task agent's own model use while evaluated (a task that needs a model); null: none. */
  readonly solve: { readonly calls: number; readonly prompt: number; readonly completion: number; readonly costUsd: number | null } | null;
  readonly timings: Record<string, number>;
  readonly changed: { path: string; change: string; additions: number; deletions: number }[];
  /** `label`: the stage as views name it ("stage 2", never "visible": that is the headline score over stages 1 and 2). */
  readonly stages: { stage: string; label: string; score: number; instances: number; failed: number; durationMs: number }[];
  readonly failures: { id: string; split: string; reason: string }[];
  readonly packing: PackingView | null;
  /** The generation's best recorded episode; "omitted" when over the page's budget (evolve watch plays it). */
  readonly episode: EpisodeView | "omitted" | null;
  readonly model: string | null;
  readonly createdAt: string;
  readonly children: number;
  /** "embedded": in the page; "omitted": over the size budget; "missing": unreadable. */
  readonly diff: "embedded" | "omitted" | "missing";
  /** Where the child stands with its approval (run policy) when the report was written; null: none needed. */
  readonly approval: "pending" | "approved" | "rejected" | null;
  /** The approval in words (who, when, note; why it was asked), capped; null: none needed. */
  readonly approvalText: string | null;
}

/** One point of the archive's progress: after generation `id`, the best and median scores so far. */
export interface ProgressPoint {
  readonly id: string;
  readonly index: number;
  readonly own: { readonly visible: number | null; readonly heldout: number | null };
  readonly best: { readonly visible: number | null; readonly heldout: number | null };
  readonly median: { readonly visible: number | null; readonly heldout: number | null };
}

/** An archive file the report could not read, and why (capped). */
export interface ProblemView {
  readonly path: string;
  readonly reason: string;
}

/** Everything the page shows; patches travel separately (one lazily parsed block each). */
export interface ReportData {
  readonly run: {
    readonly id: string;
    readonly task: string | null;
    readonly model: string | null;
    readonly status: string | null;
    readonly seed: number | null;
    readonly selection: string | null;
    readonly createdAt: string | null;
    readonly from: string | null;
    /** The run has a run policy (protected paths, approval rules): the tree's approval legend applies. */
    readonly policy: boolean;
  };
  readonly best: string | null;
  readonly bestPath: string[];
  readonly nodes: NodeView[];
  readonly series: ProgressPoint[];
  readonly problems: ProblemView[];
  readonly generatedAt: string;
}

/** Element ids in render-html.ts's markup that the page script looks up. */
export type PageId =
  | "report-data" | "title" | "meta" | "problems" | "chart-svg" | "tree-wrap" | "tree-svg" | "scale-label"
  | "zoom-in" | "zoom-out" | "goto" | "goto-best" | "details" | "packing" | "diff-label" | "diff" | "policy-legend" | "episode";
