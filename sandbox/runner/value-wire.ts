/**
 * A JavaScript value as plain JSON and back, for what a candidate's function returned in a
 * code-test container. JSON alone would make `undefined`, `NaN` and a Map look like `null` or
 * `{}`, and a wrong answer look right; such values travel as tagged objects instead:
 *
 *   { "$evolve": "undefined" }                  { "$evolve": "number", "v": "NaN" | "Infinity" | "-Infinity" }
 *   { "$evolve": "bigint", "v": "12" }           { "$evolve": "date", "v": "2024-01-01T00:00:00.000Z" }
 *   { "$evolve": "map", "v": [[k, v], …] }        { "$evolve": "set", "v": [v, …] }
 *   { "$evolve": "object", "v": { … } }          (a plain object that has a "$evolve" key itself)
 *
 * Encoding runs in the runner's main thread (never in the candidate's realm) on the structured
 * clone of the value; decoding runs on the host over hostile JSON. Both are bounded: depth,
 * and size as JSON.
 */
import type { WireJson } from "./protocol.js";

export const VALUE_TAG = "$evolve";
export const MAX_VALUE_DEPTH = 64;

export type Encoded = { ok: true; value: WireJson } | { ok: false; reason: string };

class TooLarge extends Error {}

/** `value` as tagged JSON of at most `capBytes` (counted as JSON text, roughly), or why not. */
export function encodeValue(value: unknown, capBytes: number): Encoded {
  let budget = capBytes;
  const spend = (n: number): void => {
    budget -= n;
    if (budget < 0) throw new TooLarge();
  };
  const tag = (kind: string, v?: WireJson): WireJson => (v === undefined ? { [VALUE_TAG]: kind } : { [VALUE_TAG]: kind, v });
  const walk = (x: unknown, depth: number): WireJson => {
    if (depth > MAX_VALUE_DEPTH) throw new RangeError(`nested deeper than ${MAX_VALUE_DEPTH}`);
    spend(8);
    if (x === null || typeof x === "boolean") return x;
    if (x === undefined) return tag("undefined");
    if (typeof x === "number") return Number.isFinite(x) ? x : tag("number", String(x));
    if (typeof x === "string") {
      spend(x.length);
      return x;
    }
    if (typeof x === "bigint") return tag("bigint", x.toString());
    if (x instanceof Date) return tag("date", Number.isNaN(x.getTime()) ? "Invalid Date" : x.toISOString());
    if (x instanceof Map) return tag("map", [...x].map(([k, v]) => [walk(k, depth + 1), walk(v, depth + 1)]));
    if (x instanceof Set) return tag("set", [...x].map((v) => walk(v, depth + 1)));
    if (Array.isArray(x)) return Array.from(x, (v) => walk(v, depth + 1));
    if (typeof x === "object") {
      const out: Record<string, WireJson> = {};
      for (const [k, v] of Object.entries(x)) {
        spend(k.length);
        out[k] = walk(v, depth + 1);
      }
      return Object.hasOwn(out, VALUE_TAG) ? tag("object", out) : out;
    }
    return tag("undefined");
  };
  try {
    return { ok: true, value: walk(value, 0) };
  } catch (error) {
    if (error instanceof TooLarge) return { ok: false, reason: `the value is larger than ${capBytes} bytes` };
    return { ok: false, reason: `the value cannot be sent: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The JavaScript value of tagged JSON (hostile input: a malformed tag is read as the plain object it is). */
export function decodeValue(wire: WireJson, depth = 0): unknown {
  if (depth > MAX_VALUE_DEPTH + 1) return null;
  if (wire === null || typeof wire !== "object") return wire;
  if (Array.isArray(wire)) return wire.map((v) => decodeValue(v, depth + 1));
  const kind = wire[VALUE_TAG];
  const v = wire["v"];
  const keys = Object.keys(wire).length;
  if (typeof kind === "string" && keys <= 2) {
    if (kind === "undefined" && keys === 1) return undefined;
    if (kind === "number" && (v === "NaN" || v === "Infinity" || v === "-Infinity")) return Number(v);
    if (kind === "bigint" && typeof v === "string" && /^-?\d{1,4000}$/.test(v)) return BigInt(v);
    if (kind === "date" && typeof v === "string") return new Date(v);
    if (kind === "map" && Array.isArray(v) && v.every((e) => Array.isArray(e) && e.length === 2))
      return new Map(v.map((e) => [decodeValue((e as WireJson[])[0] ?? null, depth + 1), decodeValue((e as WireJson[])[1] ?? null, depth + 1)]));
    if (kind === "set" && Array.isArray(v)) return new Set(v.map((e) => decodeValue(e, depth + 1)));
    if (kind === "object" && v !== null && typeof v === "object" && !Array.isArray(v)) return decodeObject(v, depth);
  }
  return decodeObject(wire, depth);
}

function decodeObject(wire: { [key: string]: WireJson }, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // defineProperty: a "__proto__" key is data here, never the prototype.
  for (const [k, v] of Object.entries(wire)) Object.defineProperty(out, k, { value: decodeValue(v, depth + 1), enumerable: true, writable: true, configurable: true });
  return out;
}
