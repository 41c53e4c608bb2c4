/** The self-contained HTML report and the run facts the inspect commands share with it. */
export { writeReport, REPORT_FILE } from "./write-report.js";
export { buildReportData, capPatch, REPORT_CAPS } from "./report-data.js";
export type { NodeView, PackingView, ProblemView, ProgressPoint, ReportData } from "./report-view.js";
export { pageScript } from "./page-script.js";
export { contentSecurityPolicy, escapeHtml, jsonForScript, renderReportHtml } from "./render-html.js";
export {
  approvalTag,
  bestPath,
  byId,
  describeApproval,
  describeStatus,
  formatDelta,
  formatMs,
  formatScore,
  progressSeries,
} from "./run-summary.js";
export type { ScoreSplit } from "./run-summary.js";
export { describeRace, stoppedTag, visibleText } from "./race-text.js";
export { arenaLines, arenaRounds, arenaSection, arenaSvg } from "./arena-view.js";
export type { ArenaRoundView } from "./arena-view.js";
