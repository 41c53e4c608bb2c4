/**
 * The results every record is made of: failures (one list of codes, by stage), validation timings, evaluation results
 * per stage and instance. Validation and evaluation produce them; the archive, the report
 * and the CLI read them back through these schemas. (The agent contract is elsewhere:
 * harness/src/kernel/evolve-contract.d.ts.)
 */
export * from "./failure.js";
export * from "./results.js";
export * from "./episode.js";
export * from "./race.js";
