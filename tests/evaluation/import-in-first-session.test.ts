/**
 * The import gate in the first evaluation session (evaluation/evaluate-imported.ts): a child
 * validated with `deferImport` loads whole in its stage-1 container. Every broken rewrite of
 * the validation corpus that the import gate stops fails there with the same code as in the
 * gate's own container, and no instance runs and no other container starts; a valid rewrite
 * is evaluated with one container fewer than before (stage 1's container did the check).
 */
import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateImported, loadTask, type Task } from "../../harness/src/evaluation/index.js";
import { countingEngine, importGateOf } from "../../harness/src/evolution/index.js";
import { createValidator, type Validator } from "../../harness/src/validation/index.js";
import { testEngine, type TestEngine } from "../support/test-engine.js";
import { createLimiter, loadCorpus, prepareCase, type CorpusCase } from "../validation/corpus.js";

const corpus = (await loadCorpus()).filter((c) => c.expect === null || c.expect.stage === "import");
/** Only the endless loop waits for the import timeout; everything else loads well within it (as in the corpus test). */
const importTimeout = (c: CorpusCase): number => (c.expect?.code === "load_timeout" ? 4_000 : 60_000);

let env: TestEngine;
let validator: Validator;
let task: Task;
const scratches: string[] = [];
const runs = new Map<string, Promise<Awaited<ReturnType<typeof run>>>>();

async function run(c: CorpusCase) {
  const prepared = await prepareCase(c);
  scratches.push(prepared.scratch);
  const labels = { session: env.session, phase: "evaluate" };
  const checked = await validator.validateRewrite({ ...prepared, engine: env.engine, image: env.image, labels, deferImport: true });
  const counted = countingEngine(env.engine);
  const evaluated = checked.ok
    ? await evaluateImported(
        { engine: counted.engine, image: env.image, task, buildDir: prepared.buildDir, labels, seed: 1, visible: "stage1", heldout: false },
        importGateOf({ importTimeoutMs: importTimeout(c) }, prepared.buildDir),
      )
    : null;
  return { checked, evaluated, containers: counted.started() };
}

beforeAll(async () => {
  env = await testEngine();
  validator = createValidator();
  task = await loadTask(resolve(import.meta.dirname, "../../tasks/email-validation"));
  const limit = createLimiter(2);
  for (const c of corpus) {
    const result = limit(() => run(c));
    result.catch(() => undefined); // reported by the case's own test
    runs.set(c.name, result);
  }
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(runs.values());
  await validator?.close();
  await Promise.all(scratches.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("the import gate in the first evaluation session", () => {
  it("covers the corpus's import failures and valid rewrites", () => {
    expect(corpus.filter((c) => c.expect !== null).length).toBeGreaterThanOrEqual(4);
    expect(corpus.filter((c) => c.expect === null).length).toBeGreaterThanOrEqual(2);
  });

  for (const c of corpus) {
    const expected = c.expect === null ? "evaluated" : `import/${c.expect.code}`;
    it(`${c.name}: ${c.description} → ${expected}`, async () => {
      const { checked, evaluated, containers } = await runs.get(c.name)!;
      // Gates 0-2 passed and the import was left to the session: no container of its own.
      expect(checked).toMatchObject({ ok: true, importDeferred: true });
      expect(checked.timings.import).toBeUndefined();
      if (c.expect === null) {
        expect(evaluated?.failure).toBeNull();
        expect(evaluated?.evaluation?.stages.map((s) => s.stage)).toEqual(["stage1"]);
        expect(evaluated?.evaluation?.stages[0]?.instances.length).toBe(task.manifest.stages.stage1Size);
        // The stage-1 session loaded the agent and answered every instance: one container.
        expect(containers).toBe(1);
      } else {
        expect(evaluated?.evaluation).toBeNull();
        expect(evaluated?.failure).toMatchObject({ stage: "import", code: c.expect.code });
        expect(containers).toBe(1);
      }
      expect(evaluated?.importMs).toBeGreaterThan(0);
    }, 120_000);
  }
});
