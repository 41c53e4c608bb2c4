/**
 * Limits of the host-side checks (policy, compile, signature) of one candidate. The type
 * checker is a program running on hostile input: a few lines of recursive types can make it
 * allocate gigabytes or spin for minutes, so it runs in a worker with these bounds.
 */
import { z } from "zod";

export const CheckLimits = z.object({
  /** Old-generation heap of the check worker, in MiB: past it the worker ends, out of memory. */
  memoryMb: z.number().int().min(256, "at least 256 MiB: checking the seed agent alone takes ~150 MiB of heap").max(16_384),
  /** Wall clock of one candidate's checks, in milliseconds: past it the worker is stopped. */
  timeoutMs: z.number().int().min(1_000, "at least 1 s").max(3_600_000),
});
export type CheckLimits = z.infer<typeof CheckLimits>;

/** 1 GiB and 30 s: the seed's checks take ~150 MiB and well under a second on a warm worker. */
export const DEFAULT_CHECK_LIMITS: CheckLimits = { memoryMb: 1024, timeoutMs: 30_000 };
