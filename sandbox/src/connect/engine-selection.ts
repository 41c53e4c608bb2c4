/**
 * Which engines a command uses: `--engine SPEC` (repeatable) and `--engines FILE`, as one
 * value parsed with zod. No engine named: the local engine, exactly as before there were
 * several (DOCKER_HOST or the default socket).
 */
import { z } from "zod";
import { EvolveError, readJson } from "../../../harness/src/kernel/index.js";
import { MAX_SLOTS } from "../fleet/index.js";


/** What progress lines and generation records call an engine. */
export const EngineLabel = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/, "letters, digits, '.', '_' or '-', at most 40");
export type EngineLabel = z.infer<typeof EngineLabel>;

/** One engine: a Docker context name or a URL (unix:///…, tcp://host:2376, ssh://user@host). */
export const EngineEntry = z.strictObject({
  spec: z.string().min(1).max(500),
  /** Containers at once; default from its CPUs and memory against the per-container limits. */
  slots: z.number().int().positive().max(MAX_SLOTS).optional(),
  label: EngineLabel.optional(),
  /** For a tcp:// URL: the folder with ca.pem, cert.pem and key.pem (default DOCKER_CERT_PATH, else ~/.docker). */
  tlsDir: z.string().min(1).optional(),
});
export type EngineEntry = z.infer<typeof EngineEntry>;

/** The JSON of `--engines FILE`. */
export const EnginesFile = z.strictObject({ engines: z.array(EngineEntry).min(1).max(64) });
export type EnginesFile = z.infer<typeof EnginesFile>;

export const EngineSelection = z.strictObject({
  /** Empty: the local engine alone, as before. */
  engines: z.array(EngineEntry).max(64),
  /** Stop before anything starts when an engine is unreachable or refused (else: report and skip it). */
  requireAll: z.boolean(),
});
export type EngineSelection = z.infer<typeof EngineSelection>;

/** The local engine alone. */
export const LOCAL_ENGINE: EngineSelection = { engines: [], requireAll: false };

/** `--engines FILE` read and checked; every problem names the file. */
export async function readEnginesFile(path: string): Promise<EngineEntry[]> {
  const read = await readJson(EnginesFile, path);
  if (read.ok) return read.value.engines;
  if (read.problem === "schema") {
    throw new EvolveError("invalid_options", `--engines ${path}: ${read.reason}`, {
      hint: 'expected { "engines": [ { "spec": "CONTEXT or URL", "slots": 4, "label": "gpu-box" } ] }',
    });
  }
  throw new EvolveError("invalid_options", `--engines ${path}${read.problem === "not_json" || read.problem === "empty" ? " is not JSON" : ""}: ${read.reason}`);
}

/** The selection of `--engine` values, `--engines FILE` and `--require-all-engines`; labels must differ. */
export async function engineSelection(flags: { engine?: readonly string[]; enginesFile?: string; requireAll?: boolean }): Promise<EngineSelection> {
  const entries: EngineEntry[] = (flags.engine ?? []).map((spec) => ({ spec }));
  if (flags.enginesFile !== undefined) entries.push(...(await readEnginesFile(flags.enginesFile)));
  const parsed = EngineSelection.safeParse({ engines: entries, requireAll: flags.requireAll === true });
  if (!parsed.success) throw new EvolveError("invalid_options", `engines:\n${z.prettifyError(parsed.error)}`);
  if (parsed.data.requireAll && entries.length === 0) {
    throw new EvolveError("invalid_options", "--require-all-engines needs engines (--engine or --engines)");
  }
  return parsed.data;
}
