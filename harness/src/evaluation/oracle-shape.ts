/**
 * Whether a grader module's optional `oracle` export has the Oracle shape, or one line saying
 * what is wrong and what to write (like checkGraderShape for `grader`).
 */
import { ORACLE_LIMITS, type Oracle } from "./oracle.js";

export type OracleShape = { ok: true; oracle: Oracle | null } | { ok: false; problem: string };

const FILE = "grader.ts";
const HINT = `export const oracle = defineOracle({ description, proposalSchema, limits: { perRound, maxBytes }, judge }) with defineOracle from "evolve/task"`;

function kindOf(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") return JSON.stringify(value).slice(0, 40);
  return typeof value === "object" ? "an object of another shape" : `a ${typeof value}`;
}

function intIn(value: unknown, min: number, max: number): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}

/** Checks `mod.oracle`: null when the module exports none. */
export function checkOracleShape(mod: Record<string, unknown>): OracleShape {
  if (!("oracle" in mod) || mod["oracle"] === undefined) return { ok: true, oracle: null };
  const fail = (field: string, got: unknown, want: string): OracleShape => ({ ok: false, problem: `${FILE}: \`oracle${field}\` is ${kindOf(got)}; ${want}` });
  const candidate = mod["oracle"];
  if (typeof candidate !== "object" || candidate === null || Array.isArray(candidate)) return fail("", candidate, HINT);
  const { description, proposalSchema, limits, passScore, judge } = candidate as Record<string, unknown>;
  if (typeof description !== "string" || description.trim() === "")
    return fail(".description", description, "give it a non-empty string saying what a proposal is, e.g. \"{ address }: one email address\"");
  if (typeof (proposalSchema as { safeParse?: unknown } | null | undefined)?.safeParse !== "function")
    return fail(".proposalSchema", proposalSchema, "give it the zod schema of one proposal, e.g. z.strictObject({ address: z.string().max(254) })");
  if (typeof limits !== "object" || limits === null) return fail(".limits", limits, "give it { perRound, maxBytes }, e.g. { perRound: 8, maxBytes: 512 }");
  const { perRound, maxBytes } = limits as Record<string, unknown>;
  const { perRound: pr, maxBytes: mb } = ORACLE_LIMITS;
  if (!intIn(perRound, pr.min, pr.max)) return fail(".limits.perRound", perRound, `give it an integer from ${pr.min} to ${pr.max}: the proposals read per test generation`);
  if (!intIn(maxBytes, mb.min, mb.max)) return fail(".limits.maxBytes", maxBytes, `give it an integer from ${mb.min} to ${mb.max}: one proposal's size as JSON`);
  if (passScore !== undefined && !(typeof passScore === "number" && passScore > 0 && passScore <= 1))
    return fail(".passScore", passScore, "give it a number above 0 and at most 1 (a candidate scoring below it fails a test), or leave it out for 1");
  if (typeof judge !== "function") return fail(".judge", judge, "give it judge(proposal, id) returning { ok: true, instance, verdict } or { ok: false, reason }");
  return { ok: true, oracle: candidate as Oracle };
}
