/**
 * Per-case results of the security suite: each case adds one row (attack, runtime,
 * outcome, time to contain), appended to a JSON-lines file as it happens and printed as
 * one table when the suite ends.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface CaseRow {
  attack: string;
  runtime: string;
  /** What happened, in a few words (the reason the harness recorded). */
  outcome: string;
  /** From the attack's start to the harness having contained it (result recorded, container gone). */
  containMs: number | null;
  passed: boolean;
}

/** Collects rows in memory and in `file` (JSON lines, rewritten as one JSON array at the end). */
export class ResultLog {
  readonly rows: CaseRow[] = [];
  readonly file: string;
  private readonly linesFile: string;

  constructor(dir = tmpdir()) {
    this.file = join(dir, "evolve-security-results.json");
    this.linesFile = join(dir, "evolve-security-results.jsonl");
    writeFileSync(this.linesFile, "");
  }

  add(row: CaseRow): void {
    this.rows.push(row);
    appendFileSync(this.linesFile, JSON.stringify(row) + "\n");
  }

  /** Writes the JSON file and returns the table (Markdown, sorted by attack then runtime). */
  finish(date = new Date()): string {
    const rows = [...this.rows].sort((a, b) => a.attack.localeCompare(b.attack, "en", { numeric: true }) || a.runtime.localeCompare(b.runtime));
    writeFileSync(this.file, JSON.stringify({ date: date.toISOString(), rows }, null, 2) + "\n");
    return formatTable(rows, date);
  }
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s+/g, " ").slice(0, 160);
}

/** The Markdown table SECURITY.md carries. */
export function formatTable(rows: readonly CaseRow[], date: Date): string {
  const lines = [
    `Security suite, ${date.toISOString().slice(0, 16).replace("T", " ")} UTC — ${rows.filter((r) => r.passed).length}/${rows.length} contained`,
    "",
    "| attack | runtime | outcome | time to contain |",
    "|---|---|---|---|",
  ];
  for (const r of rows) {
    const time = r.containMs === null ? "—" : r.containMs < 1000 ? `${Math.round(r.containMs)} ms` : `${(r.containMs / 1000).toFixed(1)} s`;
    lines.push(`| ${cell(r.attack)} | ${r.runtime} | ${r.passed ? "" : "**FAILED** "}${cell(r.outcome)} | ${time} |`);
  }
  return lines.join("\n");
}
