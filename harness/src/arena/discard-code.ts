/** Why a proposal did not become an arena test: one enum, used by the judge, the suite and the records. */
import { z } from "zod";

export const DiscardCode = z.enum([
  "over_count",
  "too_large",
  "not_json",
  "schema",
  "oracle_refused",
  "oracle_failed",
  "oracle_timeout",
  "oracle_memory",
  "instance_schema",
  "duplicate",
  "not_discriminating",
  /** The test generation's propose call failed or its tree was invalid: there was nothing to judge. */
  "no_proposals",
]);
export type DiscardCode = z.infer<typeof DiscardCode>;
