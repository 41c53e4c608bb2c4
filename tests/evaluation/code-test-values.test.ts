/**
 * The value wire of code tests (what a candidate's function returned, as JSON and back) and
 * the host's comparisons with a test's expected value. Host-only: no container.
 */
import { describe, expect, it } from "vitest";
import { valuesMatch } from "../../harness/src/evaluation/index.js";
import { decodeValue, encodeValue, VALUE_TAG } from "../../sandbox/src/index.js";

const roundTrip = (value: unknown): unknown => {
  const encoded = encodeValue(value, 1 << 20);
  if (!encoded.ok) throw new Error(encoded.reason);
  return decodeValue(JSON.parse(JSON.stringify(encoded.value)) as never);
};

describe("value wire", () => {
  it("keeps apart what JSON alone would blur", () => {
    const value = { u: undefined, n: NaN, inf: -Infinity, big: 12n, when: new Date(0), m: new Map([[1, "x"]]), s: new Set(["a"]), holes: [1, undefined, 3] };
    expect(roundTrip(value)).toEqual(value);
    expect(roundTrip(undefined)).toBeUndefined();
    expect(roundTrip(null)).toBeNull();
    // A plain object that happens to carry the tag key is still that plain object.
    expect(roundTrip({ [VALUE_TAG]: "undefined" })).toEqual({ [VALUE_TAG]: "undefined" });
  });

  it("refuses what is too large or too deep, and reads hostile tags as plain objects", () => {
    expect(encodeValue("x".repeat(100), 50)).toEqual({ ok: false, reason: "the value is larger than 50 bytes" });
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(encodeValue(deep, 1 << 20)).toMatchObject({ ok: false, reason: expect.stringContaining("nested deeper than 64") });
    expect(decodeValue({ [VALUE_TAG]: "bigint", v: "1e9" })).toEqual({ [VALUE_TAG]: "bigint", v: "1e9" });
    expect(decodeValue({ [VALUE_TAG]: "map", v: [[1]] })).toEqual({ [VALUE_TAG]: "map", v: [[1]] });
    const proto = decodeValue(JSON.parse('{"__proto__": {"polluted": true}}') as never) as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("comparing with the expected value", () => {
  it("equal is deep and strict; unordered ignores an array's order; approx allows the tolerance", () => {
    expect(valuesMatch([1, [2, 3]], [1, [2, 3]], "equal")).toBe(true);
    expect(valuesMatch([1, 2], [2, 1], "equal")).toBe(false);
    expect(valuesMatch(undefined, null, "equal")).toBe(false);
    expect(valuesMatch("1", 1, "equal")).toBe(false);
    expect(valuesMatch([{ b: 1, a: 2 }, 3], [3, { a: 2, b: 1 }], "unordered")).toBe(true);
    expect(valuesMatch([1, 1, 2], [1, 2, 2], "unordered")).toBe(false);
    expect(valuesMatch(0.1 + 0.2, 0.3, { approx: 1e-9 })).toBe(true);
    expect(valuesMatch([1000.0004], [1000], { approx: 1e-6 })).toBe(true);
    expect(valuesMatch(1.01, 1, { approx: 1e-6 })).toBe(false);
    expect(valuesMatch(NaN, NaN, { approx: 1e-9 })).toBe(true);
  });
});
