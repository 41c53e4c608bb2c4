/**
 * The meta agent's own search parameters. They are knobs like any task solver's: the
 * offline strategy may mutate them (annotations below), so a lineage tunes how it searches.
 */
export const search = {
  /** Relative step size: a fraction of the range (or of log-range for wide positive ranges). */
  stepScale: 0.1, // evolve:range 0.02..0.8
  /** How many knob edits one generation makes. */
  editsPerGeneration: 1, // evolve:range 1..4 int
  /** Probability that an edit targets the solver file of the task being evolved. */
  taskFileBias: 0.9, // evolve:range 0.5..1
  /** Probability of adding one edit to this very file (self-modification of the search). */
  selfEditRate: 0.15, // evolve:range 0..0.5
  /** Step multiplier when continuing a move that raised the score. */
  momentum: 1.5, // evolve:range 1..3
  /** Step multiplier when reversing a move that lowered the score. */
  retreat: 0.5, // evolve:range 0.1..1
  /** How many lineage steps back a knob's history still counts. */
  memory: 8, // evolve:range 1..30 int
  /** Perturb plain numeric literals when a file has no annotated knobs. */
  literalFallback: true, // evolve:flag
  /** Type-check each offline edit in the container and retry another one on errors, when no draft is tested with ctx.evaluate (not a knob: it keeps untested edits compiling). */
  typeCheck: true,
  /** Moves the offline strategy tests with ctx.evaluate before it keeps the best (capped by the budget; 0: one untested move). */
  innerSteps: 3, // evolve:range 0..6 int
  // The LLM's settings carry no annotation: the offline strategy cannot measure them (it runs
  // without a model), so it should not spend its moves on them. An LLM may rewrite them.
  /** LLM: how many times a failed SEARCH block is sent back to the model. */
  llmRetries: 2,
  /** LLM: characters of source and feedback the prompt may carry. */
  promptCharCap: 24000,
  /** LLM: sampling temperature. */
  temperature: 0.7,
  /** LLM: tokens the model may answer with. */
  maxTokens: 4000,
  /** LLM: "tools" runs the tool loop (tool-loop.ts); "text" asks for SEARCH/REPLACE blocks (llm.ts). The loop falls back to text by itself when the endpoint refuses tools. */
  llmMode: "tools" as "tools" | "text",
  /** LLM tool loop: model turns at most (each may call several tools). */
  toolSteps: 20,
  /** LLM tool loop: characters of conversation kept; older tool results are elided past it. */
  toolContextChars: 60000,
  /** LLM tool loop: characters of one tool result (a file read) at most. */
  toolResultChars: 12000,
};
