/**
 * The CLI's one rule for a wrong command line (an unknown option, a value out of range or of
 * the wrong kind): one line, `evolve <cmd>: <what is wrong> (see evolve <cmd> --help)`, exit
 * 2, in the same words for every option: `--workers expects a whole number from 1 to 64, got "0"`.
 * Ranges come from the zod schema that parses the options (through its JSON Schema), so the
 * words cannot drift from what is enforced.
 */
import { z } from "zod";
import type { CommandInput } from "./command.js";

/** A mistake in the command line: main prints it in one line and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The words for "what a value must be", e.g. "a whole number from 1 to 64". */
export type Rule = string;

/** A value given as text on the command line, as the rule's error quotes it. */
export function quoteRaw(raw: unknown): string {
  return typeof raw === "string" ? JSON.stringify(raw) : Array.isArray(raw) ? JSON.stringify(raw.join(" ")) : String(raw);
}

/** `--name expects RULE, got "RAW"`. */
export function usageProblem(name: string, rule: Rule, raw: unknown): UsageError {
  return new UsageError(`--${name} expects ${rule}, got ${quoteRaw(raw)}`);
}

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;

/** A numeric option as a number, or undefined when absent; text that is not a number is a usage error (ranges are the schema's). */
export function numberOption(values: CommandInput["values"], name: string, rule: Rule | (() => Rule) = "a number"): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== "string" || !NUMBER.test(raw.trim())) throw usageProblem(name, typeof rule === "function" ? rule() : rule, raw);
  return Number(raw);
}

interface JsonNumberSchema {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
  anyOf?: JsonNumberSchema[];
}

/** "a whole number from 1 to 64" from a JSON Schema property; `scale` turns milliseconds into seconds. */
export function ruleOf(property: JsonNumberSchema | undefined, scale = 1, unit = ""): Rule {
  if (property === undefined) return "a valid value";
  const p = property.anyOf?.find((q) => q.type !== "null") ?? property;
  if (p.enum !== undefined) return `one of ${p.enum.map(String).join(", ")}`;
  const whole = p.type === "integer" && scale === 1;
  const noun = whole ? "a whole number" : "a number";
  const low =
    p.minimum !== undefined ? { at: p.minimum, strict: false }
    : p.exclusiveMinimum === undefined ? null
    : whole ? { at: p.exclusiveMinimum + 1, strict: false }
    : { at: p.exclusiveMinimum, strict: true };
  const high = p.maximum !== undefined && p.maximum < Number.MAX_SAFE_INTEGER ? p.maximum : null;
  const u = unit === "" ? "" : ` ${unit}`;
  const lo = low === null ? "" : shown(low.at / scale);
  if (low !== null && high !== null) return low.strict ? `${noun} above ${lo} and at most ${shown(high / scale)}${u}` : `${noun} from ${lo} to ${shown(high / scale)}${u}`;
  if (low !== null) return `${noun} ${low.strict ? "above" : "of at least"} ${lo}${u}`;
  if (high !== null) return `${noun} of at most ${shown(high / scale)}${u}`;
  return `${noun}${u}`;
}

function shown(n: number): string {
  return String(Number(n.toPrecision(12)));
}

/** How an option of the command line maps onto a field of the schema. */
export interface OptionField {
  /** The path of the field in the parsed object, e.g. ["arena", "rounds"]. */
  path: readonly string[];
  /** The flag without dashes, e.g. "rounds". */
  name: string;
  /** The field holds milliseconds; the flag takes seconds. */
  seconds?: boolean;
}

/** The JSON Schema property at `path` (through nullable unions and objects). */
function propertyAt(schema: unknown, path: readonly string[]): JsonNumberSchema | undefined {
  let at = schema as { properties?: Record<string, unknown>; anyOf?: unknown[] } | undefined;
  for (const key of path) {
    const object = (at?.anyOf?.find((p) => (p as { type?: string }).type === "object") ?? at) as { properties?: Record<string, unknown> } | undefined;
    at = object?.properties?.[key] as typeof at;
  }
  return at as JsonNumberSchema | undefined;
}

/** The rule of one option, read from the schema that will parse it. */
export function optionRule(schema: z.ZodType, field: OptionField): Rule {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return ruleOf(propertyAt(json, field.path), field.seconds === true ? 1000 : 1, field.seconds === true ? "seconds" : "");
}

/**
 * Parses `options` with `schema`; the first problem becomes one usage line naming the flag
 * the person typed and its rule. Fields no flag names fall through to the schema's words.
 */
export function parseOptions<T>(schema: z.ZodType<T>, options: unknown, fields: readonly OptionField[], values: CommandInput["values"]): T {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = fields.find((f) => f.path.length === issue.path.length && f.path.every((p, i) => p === issue.path[i]));
  if (field === undefined) throw new UsageError(`${issue.path.join(".") || "options"}: ${issue.message}`);
  const raw = values[field.name];
  // A refinement carries its own words (e.g. --from expects RUN/GEN); ranges and kinds come from the schema.
  const rule = issue.code === "custom" ? issue.message.replace(/^expected /, "") : optionRule(schema, field);
  throw usageProblem(field.name, rule, raw);
}
