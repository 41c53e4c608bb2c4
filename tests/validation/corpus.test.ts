/**
 * The validation corpus through the real pipeline: every broken rewrite fails at the expected
 * gate with the expected code; the seed and the valid rewrites pass all four gates, the import
 * gate on the in-memory engine (two at a time; tests/sandbox/engine-contract.test.ts shows
 * loading comes out the same as in a container).
 */
import { appendFile, cp, mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ValidationFailure, ValidationStage } from "../../harness/src/results/index.js";
import { createValidator, type ValidationOutcome, type Validator } from "../../harness/src/validation/index.js";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";
import { type CorpusCase, createLimiter, loadCorpus, prepareCase, SEED_DIR } from "./corpus.js";

const corpus = await loadCorpus();
const usesContainer = (c: CorpusCase): boolean => c.expect === null || c.expect.stage === "import";
/** Only the endless loop waits for the import timeout; everything else loads well within it. */
const importTimeout = (c: CorpusCase): number => (c.expect?.code === "load_timeout" ? 4_000 : 60_000);
const STAGES = ValidationStage.options;

let env: TestEngine;
let validator: Validator;
const scratches: string[] = [];
const pooled = new Map<string, Promise<{ outcome: ValidationOutcome; buildDir: string }>>();

async function run(c: CorpusCase): Promise<{ outcome: ValidationOutcome; buildDir: string }> {
  const prepared = await prepareCase(c);
  scratches.push(prepared.scratch);
  const outcome = await validator.validateRewrite({
    parentDir: prepared.parentDir,
    childDir: prepared.childDir,
    buildDir: prepared.buildDir,
    engine: env.engine,
    image: env.image,
    labels: { session: env.session, phase: "validate" },
    importTimeoutMs: importTimeout(c),
  });
  return { outcome, buildDir: prepared.buildDir };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function expectTimingsUpTo(outcome: ValidationOutcome, last: string): void {
  const ran = STAGES.slice(0, STAGES.indexOf(last as (typeof STAGES)[number]) + 1);
  for (const stage of STAGES) {
    if (ran.includes(stage)) expect(outcome.timings[stage], `timing of ${stage}`).toBeGreaterThanOrEqual(0);
    else expect(outcome.timings[stage], `timing of ${stage}`).toBeUndefined();
  }
}

beforeAll(async () => {
  env = await memoryEngine();
  validator = createValidator();
  const limit = createLimiter(2);
  for (const c of corpus.filter(usesContainer)) {
    const result = limit(() => run(c));
    result.catch(() => undefined); // reported by the case's own test
    pooled.set(c.name, result);
  }
});

afterAll(async () => {
  await Promise.allSettled(pooled.values());
  await Promise.all(scratches.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("validation corpus", () => {
  it("has at least 15 broken rewrites and 2 valid ones", () => {
    expect(corpus.filter((c) => c.expect !== null).length).toBeGreaterThanOrEqual(15);
    expect(corpus.filter((c) => c.expect === null).length).toBeGreaterThanOrEqual(2);
  });

  for (const c of corpus.filter((x) => x.expect !== null)) {
    it(`${c.name}: ${c.description} → ${c.expect?.stage}/${c.expect?.code}`, async () => {
      const { outcome, buildDir } = await (pooled.get(c.name) ?? run(c));
      expect(outcome.ok ? null : { stage: outcome.failure.stage, code: outcome.failure.code }, outcome.ok ? "" : outcome.failure.message).toEqual(c.expect);
      if (outcome.ok) return;
      const failure = ValidationFailure.parse(outcome.failure);
      expect(failure.message.length).toBeGreaterThan(0);
      expectTimingsUpTo(outcome, failure.stage);
      if (failure.stage === "compile" || failure.stage === "signature") {
        expect(failure.file, failure.message).toMatch(/^(task|meta)\//);
        // A missing export has no line to point at; everything else names one.
        if (failure.code === "missing_export") expect(failure.line).toBeNull();
        else expect(failure.line, failure.message).toBeGreaterThan(0);
      }
      if (["syntax_error", "type_error", "unresolved_import", "missing_export", "signature_mismatch"].includes(failure.code) && failure.stage !== "import") {
        expect(failure.message).toMatch(/error TS\d+: /); // the compiler's own words
      }
      // The build dir holds emitted JS only once gates 0–2 passed.
      expect(await exists(join(buildDir, "task", "index.js"))).toBe(failure.stage === "import");
    });
  }

  for (const c of corpus.filter((x) => x.expect === null)) {
    it(`${c.name}: ${c.description} passes every gate`, async () => {
      const { outcome, buildDir } = await (pooled.get(c.name) ?? run(c));
      expect(outcome.ok, outcome.ok ? "" : JSON.stringify(outcome.failure)).toBe(true);
      expectTimingsUpTo(outcome, "import");
      expect(JSON.parse(await readFile(join(buildDir, "package.json"), "utf8"))).toEqual({ type: "module" });
      const built = await readdir(buildDir, { recursive: true });
      expect(built.every((p) => !p.endsWith(".ts"))).toBe(true);
    });
  }
});

describe("the seed agent", () => {
  it("passes every gate as the seed (no parent)", async () => {
    const scratch = await mkdtemp(join(tmpdir(), "evolve-validation-seed-"));
    scratches.push(scratch);
    const outcome = await validator.validateSeed({
      childDir: SEED_DIR,
      buildDir: join(scratch, "build"),
      engine: env.engine,
      image: env.image,
      labels: { session: env.session, phase: "validate" },
      importTimeoutMs: 60_000,
    });
    expect(outcome.ok, outcome.ok ? "" : JSON.stringify(outcome.failure)).toBe(true);
    expect(await exists(join(scratch, "build", "meta", "index.js"))).toBe(true);
  });

  it("an edited copy passes against the seed; an unchanged copy is an empty diff", async () => {
    const scratch = await mkdtemp(join(tmpdir(), "evolve-validation-seed-"));
    scratches.push(scratch);
    const child = join(scratch, "child");
    await cp(SEED_DIR, child, { recursive: true });
    const unchanged = await validator.validateStatic({ parentDir: SEED_DIR, childDir: child, buildDir: join(scratch, "b0") });
    expect(unchanged.ok ? null : unchanged.failure.code).toBe("empty_diff");
    await appendFile(join(child, "task", "index.ts"), "\n// a harmless rewrite\n");
    const edited = await validator.validateRewrite({
      parentDir: SEED_DIR,
      childDir: child,
      buildDir: join(scratch, "b1"),
      engine: env.engine,
      image: env.image,
      labels: { session: env.session, phase: "validate" },
      importTimeoutMs: 60_000,
    });
    expect(edited.ok, edited.ok ? "" : JSON.stringify(edited.failure)).toBe(true);
  });

  it("a seed copy whose tsconfig switches strict off still fails on an implicit any", async () => {
    const scratch = await mkdtemp(join(tmpdir(), "evolve-validation-seed-"));
    scratches.push(scratch);
    const child = join(scratch, "child");
    await cp(SEED_DIR, child, { recursive: true });
    await appendFile(join(child, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: false, plugins: [{ name: "x" }] } }));
    await appendFile(join(child, "task", "index.ts"), "\nexport function loose(value) { return value; }\n");
    const outcome = await validator.validateStatic({ parentDir: SEED_DIR, childDir: child, buildDir: join(scratch, "b") });
    expect(outcome.ok ? null : [outcome.failure.stage, outcome.failure.code, outcome.failure.file]).toEqual([
      "compile",
      "type_error",
      "task/index.ts",
    ]);
  });
});
