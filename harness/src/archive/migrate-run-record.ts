/**
 * Reading archives written by earlier versions. Version 1 of run.json kept its limits as an
 * open map of numbers (anything went through, a missing key read as "unlimited"); version 2
 * requires every limit; version 3 adds `evaluations`; version 4 the optional `arena`. An older record gets the values the
 * harness of its day used when a key was absent or null, so the run resumes and replays as
 * it ran: no harness before version 3 evaluated a draft (ctx.evaluate refused every call),
 * so an older run's `evaluations` is 0.
 */
import { z } from "zod";

/** What a version-1 harness did when a limit was not recorded (its defaults, fixed in history). */
const V1_DEFAULTS = {
  improveTimeoutMs: 180_000,
  importTimeoutMs: 10_000,
  // Version 1 checked on the main thread without limits; these are version 2's defaults.
  checkMemoryMb: 1024,
  checkTimeoutMs: 30_000,
} as const;

/** Calls of ctx.evaluate in runs recorded before version 3: none could be made. */
const EVALUATIONS_BEFORE_V3 = 0;

const V1Limits = z.looseObject({
  budgetTokens: z.number().nullable().optional(),
  budgetUsd: z.number().nullable().optional(),
  generationTokens: z.number().nullable().optional(),
  improveTimeoutMs: z.number().nullable().optional(),
  importTimeoutMs: z.number().nullable().optional(),
});

const V1Record = z.looseObject({
  schemaVersion: z.literal(1),
  config: z.looseObject({ limits: V1Limits }),
});

const V2Record = z.looseObject({
  schemaVersion: z.literal(2),
  config: z.looseObject({ limits: z.looseObject({}) }),
});

const V3Record = z.looseObject({ schemaVersion: z.literal(3) });

/** An older run.json upgraded to the current version; anything else is returned as it is (the schema judges it). */
export function upgradeRunRecord(raw: unknown): unknown {
  return upgradeV3(upgradeV2(upgradeV1(raw)));
}

function upgradeV1(raw: unknown): unknown {
  const v1 = V1Record.safeParse(raw);
  if (!v1.success) return raw;
  const limits = v1.data.config.limits;
  return {
    ...v1.data,
    schemaVersion: 2,
    config: {
      ...v1.data.config,
      // The five container fields version 1 typed were never written; other keys are dropped.
      limits: {
        budgetTokens: limits.budgetTokens ?? null,
        budgetUsd: limits.budgetUsd ?? null,
        generationTokens: limits.generationTokens ?? null,
        improveTimeoutMs: limits.improveTimeoutMs ?? V1_DEFAULTS.improveTimeoutMs,
        importTimeoutMs: limits.importTimeoutMs ?? V1_DEFAULTS.importTimeoutMs,
        checkMemoryMb: V1_DEFAULTS.checkMemoryMb,
        checkTimeoutMs: V1_DEFAULTS.checkTimeoutMs,
      },
    },
  };
}

function upgradeV2(raw: unknown): unknown {
  const v2 = V2Record.safeParse(raw);
  if (!v2.success) return raw;
  // Only the new key is added: version 2's limits were already strict, and the schema still judges them.
  const limits = { ...v2.data.config.limits, evaluations: EVALUATIONS_BEFORE_V3 };
  return { ...v2.data, schemaVersion: 3, config: { ...v2.data.config, limits } };
}

/** Version 4 adds the optional `config.arena`: no run before it was an arena run, so nothing else changes. */
function upgradeV3(raw: unknown): unknown {
  const v3 = V3Record.safeParse(raw);
  return v3.success ? { ...v3.data, schemaVersion: 4 } : raw;
}
