/**
 * Trusted grader of email-validation: one call per instance, input `{ addresses: string[] }`,
 * output an array of booleans of the same length (true = valid). Score = accuracy.
 * Its oracle (arena runs) labels a proposed address with the task's reference rules.
 */
import { defineGrader, defineOracle, describeFailure, z } from "evolve/task";
import { isValidAddress } from "./rules.js";

const Instance = z
  .object({
    id: z.string().min(1),
    addresses: z.array(z.string()).min(1),
    labels: z.array(z.boolean()),
  })
  .refine((i) => i.addresses.length === i.labels.length, "addresses and labels must have the same length");
type Instance = z.infer<typeof Instance>;

/** Checks a hostile answer: an array of exactly `length` booleans. */
export function checkAnswer(value: unknown, length: number): { ok: true; answer: boolean[] } | { ok: false; reason: string } {
  if (!Array.isArray(value)) return { ok: false, reason: "output must be an array of booleans" };
  if (value.length !== length) return { ok: false, reason: `expected ${length} booleans, got ${value.length}` };
  const bad = value.findIndex((v) => typeof v !== "boolean");
  if (bad >= 0) return { ok: false, reason: `element ${bad} is ${JSON.stringify(value[bad])?.slice(0, 40) ?? "undefined"}, not a boolean` };
  return { ok: true, answer: value as boolean[] };
}

export const grader = defineGrader<Instance>({
  instanceSchema: Instance,
  async grade(instance, solve) {
    const reply = await solve({ addresses: instance.addresses });
    if (!reply.ok) return { score: 0, value: null, feedback: `no answer: ${describeFailure(reply)}` };
    const check = checkAnswer(reply.value, instance.addresses.length);
    if (!check.ok) return { score: 0, value: null, feedback: `invalid output: ${check.reason}` };
    const wrong = instance.addresses.filter((_, k) => check.answer[k] !== instance.labels[k]).length;
    const accuracy = (instance.addresses.length - wrong) / instance.addresses.length;
    // Feedback counts errors by kind but never quotes addresses or labels (held-out stays hidden).
    const falseValid = instance.addresses.filter((_, k) => check.answer[k] === true && instance.labels[k] === false).length;
    return {
      score: accuracy,
      value: accuracy,
      feedback: `${instance.addresses.length - wrong}/${instance.addresses.length} correct; ${falseValid} invalid addresses accepted, ${wrong - falseValid} valid addresses rejected`,
    };
  },
});

/** One address a test agent thinks a candidate gets wrong; the length bound is the rules' own limit. */
const Proposal = z.strictObject({ address: z.string().min(1).max(254) });

/**
 * Arena oracle: a proposal becomes a one-address instance labelled by rules.ts (the reference
 * the split labels are checked against), whatever the test agent believed the label to be.
 * Deterministic; it never refuses a parsed proposal.
 */
export const oracle = defineOracle({
  description: '{ "address": string }: one email address (1 to 254 characters); the oracle labels it valid or invalid under the rules in the task description',
  proposalSchema: Proposal,
  limits: { perRound: 8, maxBytes: 512 },
  judge({ address }, id) {
    const valid = isValidAddress(address);
    const instance: Instance = { id, addresses: [address], labels: [valid] };
    return { ok: true, instance, verdict: `${valid ? "valid" : "invalid"} under the task's rules (rules.ts)` };
  },
});
