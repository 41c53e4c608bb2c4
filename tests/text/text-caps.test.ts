import { describe, expect, it } from "vitest";
import { capTail, capText, oneLine } from "../../harness/src/text/index.js";

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
