/**
 * A code test's report as a grade: the share of tests passed, or 0 with the reason when the
 * answer did not compile, broke the rules (exit, flood, memory, the file system or the
 * network), or ran out of time. Feedback names failing tests and what the answer gave, never
 * what a test expected (visible feedback reaches the meta agent).
 */
import type { CodeTestReport, GradeOutcome } from "../evaluation/index.js";
import { capText } from "../text/index.js";

const FEEDBACK_CHARS = 1_200;
const FAILURES_SHOWN = 4;

/** Score = passed / total for a tested answer; 0 with value null (an unusable answer) otherwise. */
export function codeTestOutcome(report: CodeTestReport): GradeOutcome {
  switch (report.status) {
    case "tested": {
      const failing = report.tests.filter((t) => !t.passed);
      const shown = failing.slice(0, FAILURES_SHOWN).map((t) => `"${capText(t.name, 60)}": ${capText(t.detail, 160)}`);
      const more = failing.length > FAILURES_SHOWN ? `; and ${failing.length - FAILURES_SHOWN} more` : "";
      const feedback = `${report.passed}/${report.total} tests passed${shown.length > 0 ? `; failing: ${shown.join("; ")}${more}` : ""}`;
      return { score: report.total === 0 ? 0 : report.passed / report.total, value: report.passed / Math.max(1, report.total), feedback: capText(feedback, FEEDBACK_CHARS) };
    }
    case "compile_error":
      return { score: 0, value: null, feedback: capText(`compile error: ${report.message}`, FEEDBACK_CHARS) };
    case "violation":
      return { score: 0, value: null, feedback: capText(`scored 0 for breaking the rules: ${report.reason}`, FEEDBACK_CHARS) };
    case "timeout":
    case "crash":
    case "refused":
      return { score: 0, value: null, feedback: capText(`${report.status}: ${report.reason}`, FEEDBACK_CHARS) };
  }
}
