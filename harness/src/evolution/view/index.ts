/** What a person sees: the live line, the summary, the report at the end. */
export { Progress, describeRecord, formatDuration, formatEngineLoad, type ProgressSink } from "./progress.js";
export { writeRunReport } from "./run-report.js";
export { formatSummary, summarise, type RunSummary } from "./summary.js";
