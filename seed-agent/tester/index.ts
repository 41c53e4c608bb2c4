/**
 * The seed tester (arena runs): `propose` returns new instances meant to break the current
 * code population. Offline it draws from its own lists (offline.ts); with a model it asks for
 * proposals and tops them up from the same lists (llm.ts). It sees the task, the visible split,
 * the suite and which candidate fails which test; never held-out data, never the oracle.
 */
import type { ProposeFn } from "@evolve/contract";
import { offlineProposals } from "./offline.js";
import { tester } from "./params.js";

export const propose: ProposeFn = async (request, ctx) => {
  // Drawn first, so the random stream (and the offline answer) is the same with or without a model.
  const offline = offlineProposals(request, () => ctx.random());
  if (!ctx.llm.available || !tester.useLlm) return offline;
  const { llmProposals } = await import("./llm.js");
  return llmProposals(request, ctx, offline);
};
