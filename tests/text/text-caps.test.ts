import { describe, expect, it } from "vitest";
import { capTail, capText, oneLine, capAtWord, plural } from "../../harness/src/text/index.js";

describe("text caps", () => {
  it("never return more than the cap, the mark included", () => {
    const text = "x".repeat(1_000);
    for (const max of [0, 1, 5, 50, 999]) {
      expect(capText(text, max).length, `capText ${max}`).toBeLessThanOrEqual(max);
      expect(capText(text, max, (n) => ` [${n} characters in all]`).length, `marked ${max}`).toBeLessThanOrEqual(max);
      expect(capTail(text, max).length, `capTail ${max}`).toBeLessThanOrEqual(max);
      expect(oneLine(text, max).length, `oneLine ${max}`).toBeLessThanOrEqual(max);
    }
  });

  it("leave text under the cap untouched, and mark a cut", () => {
    expect(capText("short", 5)).toBe("short");
    expect(capText("abcdef", 4)).toBe("abc…");
    expect(capText("abcdefghij", 8, (n) => `(${n})`)).toBe("abcd(10)");
    expect(capTail("abcdef", 4)).toBe("…def");
  });

  it("oneLine folds whitespace and control characters, escape sequences included", () => {
    expect(oneLine("  a\n\tb\u001b[31mred\u0007  ", 100)).toBe("a b [31mred");
  });
});

describe("plural", () => {
  it("says 1 worker and 2 workers, and irregular plurals when given", () => {
    expect(plural(1, "worker")).toBe("1 worker");
    expect(plural(2, "worker")).toBe("2 workers");
    expect(plural(0, "generation")).toBe("0 generations");
    expect(plural(1, "child", "children")).toBe("1 child");
    expect(plural(3, "child", "children")).toBe("3 children");
  });
});

describe("capAtWord", () => {
  it("cuts at a word, never inside one, and stays within the cap with its mark", () => {
    const text = "kept 2 moves: raised maxLocalLength to 64 and allowed quoted local parts";
    for (let max = 12; max < text.length; max++) {
      const cut = capAtWord(text, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut.endsWith("…")).toBe(true);
      const head = cut.slice(0, -1);
      expect(text.startsWith(head)).toBe(true);
      // The next character of the original after the kept words is a space or punctuation, not a letter.
      expect(text[head.length] ?? " ").toMatch(/[\s,;:.-]/);
    }
    expect(capAtWord(text, 200)).toBe(text);
  });

  it("cuts inside a single word longer than the room", () => {
    expect(capAtWord("supercalifragilistic", 8)).toBe("superca…");
  });
});
