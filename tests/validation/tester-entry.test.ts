/**
 * The tester entry (arena): tester/index.ts is checked like task/ and meta/ when it is there
 * (or required): `propose` must be a ProposeFn, and a function at load (the import gate, on the
 * in-memory engine: tests/sandbox/engine-contract.test.ts shows loading comes out as in a container).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createValidator, TESTER_FILE, treeHasTester, type Validator } from "../../harness/src/validation/index.js";
import { checkImports } from "../../sandbox/src/index.js";
import { memoryEngine } from "../support/memory-engine.js";
import type { TestEngine } from "../support/test-engine.js";

const TASK = `import type { SolveFn } from "@evolve/contract";\nexport const solve: SolveFn = async (input) => input;\n`;
const META = `import type { ImproveFn } from "@evolve/contract";\nexport const improve: ImproveFn = async () => ({ summary: "none", changedFiles: [] });\n`;
const GOOD_TESTER = `import type { Json, ProposeFn } from "@evolve/contract";
export const propose: ProposeFn = async (request, ctx) => {
  const out: Json[] = [];
  for (let i = 0; i < request.proposal.perRound; i++) out.push({ n: Math.floor(ctx.random() * 10) });
  return out;
};
`;

let validator: Validator;
const scratches: string[] = [];

beforeAll(() => {
  validator = createValidator();
});
afterAll(async () => {
  await validator.close();
  await Promise.all(scratches.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A tree with the given files (task/ and meta/ entries unless overridden), and a fresh build folder beside it. */
async function tree(files: Record<string, string>): Promise<{ dir: string; buildDir: string }> {
  const scratch = await mkdtemp(join(tmpdir(), "evolve-tester-entry-"));
  scratches.push(scratch);
  const dir = join(scratch, "tree");
  for (const [path, text] of Object.entries({ "task/index.ts": TASK, "meta/index.ts": META, ...files })) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return { dir, buildDir: join(scratch, "build") };
}

async function statics(files: Record<string, string>, requireTester?: boolean) {
  const t = await tree(files);
  return validator.validateStatic({ childDir: t.dir, buildDir: t.buildDir, parentDir: null, ...(requireTester === undefined ? {} : { requireTester }) });
}

describe("the tester entry", () => {
  it("knows whether a tree has one", async () => {
    expect(TESTER_FILE).toBe("tester/index.ts");
    expect(await treeHasTester((await tree({ [TESTER_FILE]: GOOD_TESTER })).dir)).toBe(true);
    expect(await treeHasTester((await tree({})).dir)).toBe(false);
  });

  it("passes a good tester, required or not", async () => {
    expect(await statics({ [TESTER_FILE]: GOOD_TESTER })).toMatchObject({ ok: true });
    expect(await statics({ [TESTER_FILE]: GOOD_TESTER }, true)).toMatchObject({ ok: true });
  });

  it("fails a propose of the wrong signature at the signature gate, at the export", async () => {
    const wrong = `export const propose = async (request: { round: number }): Promise<string> => String(request.round);\n`;
    const outcome = await statics({ [TESTER_FILE]: wrong });
    expect(outcome).toMatchObject({ ok: false, failure: { stage: "signature", code: "signature_mismatch", file: TESTER_FILE, line: 1 } });
    expect(outcome.ok ? "" : outcome.failure.message).toContain("export `propose` must be ProposeFn");
  });

  it("fails a tester without a propose export", async () => {
    const outcome = await statics({ [TESTER_FILE]: `export const suggest = 1;\n` });
    expect(outcome).toMatchObject({ ok: false, failure: { stage: "signature", code: "missing_export" } });
    expect(outcome.ok ? "" : outcome.failure.message).toContain("propose");
  });

  it("fails a tree without a tester when one is required, as any missing entry", async () => {
    const outcome = await statics({}, true);
    expect(outcome).toMatchObject({ ok: false, failure: { stage: "policy", code: "missing_required_file", file: TESTER_FILE } });
    expect(outcome.ok ? "" : outcome.failure.message).toContain(TESTER_FILE);
  });

  it("keeps a tree without a tester valid when none is required", async () => {
    expect(await statics({})).toMatchObject({ ok: true });
    expect(await statics({}, false)).toMatchObject({ ok: true });
  });
});

describe("the tester entry at the import gate", () => {
  let env: TestEngine;
  beforeAll(async () => {
    env = await memoryEngine();
  });

  it("loads tester/index.js with the other entries and reports propose", async () => {
    const t = await tree({ [TESTER_FILE]: GOOD_TESTER });
    const labels = { session: env.session, phase: "validate" };
    const outcome = await validator.validateSeed({ childDir: t.dir, buildDir: t.buildDir, engine: env.engine, image: env.image, labels, requireTester: true });
    expect(outcome).toMatchObject({ ok: true });
    const check = await checkImports({ engine: env.engine, image: env.image, labels, buildDir: t.buildDir, timeoutMs: 15_000 });
    expect(check).toMatchObject({ ok: true, exports: { solve: "function", improve: "function", propose: "function" } });
  });

  it("does not report propose for a build without a tester", async () => {
    const t = await tree({});
    const labels = { session: env.session, phase: "validate" };
    expect(await validator.validateSeed({ childDir: t.dir, buildDir: t.buildDir, engine: env.engine, image: env.image, labels })).toMatchObject({ ok: true });
    const check = await checkImports({ engine: env.engine, image: env.image, labels, buildDir: t.buildDir, timeoutMs: 15_000 });
    expect(check.ok ? Object.keys(check.exports).sort() : null).toEqual(["improve", "solve"]);
  });
});
