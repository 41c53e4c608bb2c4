/**
 * What a listing needs of each record: its place in the tree, its status, scores and
 * approval, and of its evaluation only whether it covered the visible split whole (a raced
 * child stopped early is never "the best": selection/best-generation.ts). `evolve ls` and
 * `evolve show` read every record of a run for these fields only; parsing the rest (the
 * evaluation's instances, timings, files) with zod was most of their time on a large run. Still read through zod: a record whose summary fields do not parse
 * is a problem like any other; one corrupt elsewhere is named by commands that read whole
 * records (`evolve tree`, and `show` for the one generation it shows).
 */
import type { z } from "zod";
import { VisibleCoverage } from "../results/index.js";
import { GenerationRecord } from "./generation-record.js";

export const GenerationSummary = GenerationRecord.pick({
  schemaVersion: true,
  id: true,
  parent: true,
  depth: true,
  status: true,
  scores: true,
  createdAt: true,
  approval: true,
}).extend({ evaluation: VisibleCoverage.nullable() });
export type GenerationSummary = z.infer<typeof GenerationSummary>;
