/**
 * Where the offline search finds knobs in a file (seed-agent/meta/knobs.ts, TypeScript's parser
 * alone). The names are part of every recorded summary ("params.k 3→4", "literal@L2:9 5→6")
 * and the lineage's credit reads them back, so they must not drift: these are the names the
 * search has always given, line and column from 1 whatever the line endings.
 */
import { describe, expect, it } from "vitest";
import { annotatedKnobs, literalKnobs, parseSource } from "../../seed-agent/meta/knobs.js";

const ANNOTATED = [
  "export const params = {",
  "  iterations: 40, // evolve:range 1..200 int",
  "  mode: \"greedy\" as const, // evolve:choices \"greedy\" | \"beam\"",
  "  nested: { rate: (0.25) satisfies number }, // not a knob: the comment is after the outer property",
  "  fast: true, // evolve:flag",
  "  bad: 3, // evolve:range 5..1",
  "};",
  "const LIMIT = -2; // evolve:range -10..10 int",
].join("\n");

describe("the offline search's knobs", () => {
  it("finds annotated literal initialisers by their dotted path, through as/satisfies/parentheses, in source order", () => {
    const knobs = annotatedKnobs("task/x.ts", parseSource("task/x.ts", ANNOTATED));
    expect(knobs.map((k) => [k.name, k.text, k.spec.kind])).toEqual([
      ["params.iterations", "40", "range"],
      ["params.mode", "\"greedy\"", "choices"],
      ["params.fast", "true", "flag"],
      ["LIMIT", "-2", "range"],
    ]);
    for (const k of knobs) expect(ANNOTATED.slice(k.start, k.end)).toBe(k.text);
  });

  it("names plain literals by line and column from 1, with \\n, \\r\\n or \\r line ends, and skips types, enums, case labels, indexes and negatives", () => {
    const lines = ["let t: 3 = 3;", "enum E { A = 7 }", "switch (t) { case 9: break; }", "const xs = [0, 1, 5];", "xs[2] = -4 + 12.5;"];
    for (const eol of ["\n", "\r\n", "\r"]) {
      const text = lines.join(eol);
      const knobs = literalKnobs("task/y.ts", parseSource("task/y.ts", text), []);
      expect(knobs.map((k) => [k.name, k.text])).toEqual([
        ["literal@L1:12", "3"],
        ["literal@L4:19", "5"],
        ["literal@L5:14", "12.5"],
      ].map(([name, value]) => [eol === "\r" ? name!.replace(/L\d+/, "L1") : name, value]));
    }
  });
});
