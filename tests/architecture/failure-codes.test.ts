/**
 * The failure codes are one enum; the table a newcomer reads (harness/src/validation/README.md)
 * must list exactly those codes for each stage, so the documentation cannot drift from it.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FAILURE_CODES, FailureStage } from "../../harness/src/results/index.js";

const README = new URL("../../harness/src/validation/README.md", import.meta.url);

function documentedCodes(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of readFileSync(README, "utf8").split("\n")) {
    const cells = /^\| ([a-z_]+) \| (.*) \|$/.exec(line);
    if (cells === null || !FailureStage.options.includes(cells[1] as FailureStage)) continue;
    // A code is a backticked snake_case word that is not inside parentheses (those are examples).
    const withoutNotes = cells[2]!.replace(/\([^)]*\)/g, "");
    rows.set(cells[1]!, [...withoutNotes.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));
  }
  return rows;
}

describe("failure codes", () => {
  it("the validation README documents every stage's codes, and only those", () => {
    const documented = documentedCodes();
    for (const stage of FailureStage.options) {
      expect(documented.get(stage)?.sort(), stage).toEqual([...FAILURE_CODES[stage]].sort());
    }
  });
});
