/**
 * The offline proposals (no model): probes drawn by the seed from the tester's lists, never one
 * the visible split or the suite already holds. Deterministic for `random`.
 */
import type { Json, ProposeRequest } from "@evolve/contract";
import { EMAIL_PROBES, variantOf } from "./email-probes.js";
import { tester } from "./params.js";

type Random = () => number;

/** How many proposals this round: `fill` of the cap, at least one (none when the cap is 0). */
export function limitOf(request: ProposeRequest): number {
  const cap = Math.max(0, Math.floor(request.proposal.perRound));
  return cap === 0 ? 0 : Math.min(cap, Math.max(1, Math.round(cap * tester.fill)));
}

/** The fields of a JSON object, or null. */
export function objectOf(value: Json | undefined): { [key: string]: Json } | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
}

function shuffled<T>(items: readonly T[], random: Random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function emailProposals(request: ProposeRequest, limit: number, random: Random): Json[] {
  const taken = new Set<string>();
  for (const instance of request.visible) {
    const addresses = objectOf(instance)?.["addresses"];
    if (Array.isArray(addresses)) for (const a of addresses) if (typeof a === "string") taken.add(a);
  }
  for (const test of request.suite) {
    const address = objectOf(test.proposal)?.["address"];
    if (typeof address === "string") taken.add(address);
  }
  // Families in a seeded order, the focused one first; probes taken round robin across them.
  const families = shuffled(Object.keys(EMAIL_PROBES), random).sort((a, b) => Number(b === tester.emailFocus) - Number(a === tester.emailFocus));
  const queues = families.map((f) => shuffled(EMAIL_PROBES[f] ?? [], random));
  const focused = families[0] === tester.emailFocus ? queues[0] : undefined;
  const out: Json[] = [];
  const offer = (address: string): void => {
    if (out.length >= limit || taken.has(address)) return;
    taken.add(address);
    out.push({ address });
  };
  // The focus family is drained first; then every family in turn.
  while (focused !== undefined && focused.length > 0 && out.length < limit) offer(focused.shift() as string);
  for (let left = true; left && out.length < limit; ) {
    left = false;
    for (const queue of queues) {
      const probe = queue.shift();
      if (probe === undefined) continue;
      left = true;
      offer(random() < tester.emailVariantRate ? variantOf(probe, random) : probe);
    }
  }
  return out;
}

const SIDE_MIN = 5;
const SIDE_MAX = 20;

function side(random: Random): number {
  const lo = Math.max(SIDE_MIN, Math.min(tester.snakeMin, tester.snakeMax));
  const hi = Math.min(SIDE_MAX, Math.max(tester.snakeMin, tester.snakeMax));
  let n = random() < tester.snakeTinyRate ? SIDE_MIN + Math.floor(random() * 3) : lo + Math.floor(random() * (hi - lo + 1));
  if (n % 2 === 0 && random() < tester.snakeOddRate) n += n + 1 <= SIDE_MAX ? 1 : -1;
  return n;
}

function snakeProposals(request: ProposeRequest, limit: number, random: Random): Json[] {
  const key = (b: { [key: string]: Json } | null): string => (b === null ? "" : `${String(b["width"])}x${String(b["height"])}#${String(b["seed"])}`);
  const taken = new Set([...request.visible.map((v) => key(objectOf(v))), ...request.suite.map((t) => key(objectOf(t.proposal)))]);
  // Sizes of suite tests some candidate fails, the most failed first: the population is weak there.
  const failing = request.suite
    .filter((t) => t.failedBy > 0)
    .sort((a, b) => b.failedBy - a.failedBy)
    .map((t) => objectOf(t.proposal))
    .filter((b): b is { [key: string]: Json } => b !== null && typeof b["width"] === "number" && typeof b["height"] === "number");
  const out: Json[] = [];
  for (let attempt = 0; out.length < limit && attempt < limit * 20; attempt++) {
    const like = failing.length > 0 && random() < tester.followFailing ? failing[Math.floor(random() * failing.length)] : undefined;
    const clamp = (n: Json | undefined): number => Math.min(SIDE_MAX, Math.max(SIDE_MIN, Math.round(typeof n === "number" ? n : SIDE_MIN)));
    const board = {
      width: like ? clamp(like["width"]) : side(random),
      height: like ? clamp(like["height"]) : side(random),
      seed: Math.floor(random() * 2 ** 31),
    };
    if (taken.has(key(board))) continue;
    taken.add(key(board));
    out.push(board);
  }
  return out;
}

/** The offline proposals for the request's task; none for a task this tester does not know. */
export function offlineProposals(request: ProposeRequest, random: Random): Json[] {
  const limit = limitOf(request);
  switch (request.task.name) {
    case "email-validation":
      return emailProposals(request, limit, random);
    case "snake":
      return snakeProposals(request, limit, random);
    default:
      return [];
  }
}
