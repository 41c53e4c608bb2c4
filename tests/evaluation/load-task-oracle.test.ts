import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EvolveError } from "../../harness/src/kernel/index.js";
import { loadTask } from "../../harness/src/evaluation/index.js";

const root = await mkdtemp(join(tmpdir(), "evolve-load-oracle-"));
afterAll(() => rm(root, { recursive: true, force: true }));

const manifest = (name: string) =>
  JSON.stringify({ name, description: "d", metric: "m", direction: "maximize", instanceTimeoutMs: 1000, evaluationTimeoutMs: 5000, stages: { stage1Size: 1, threshold: 0 } });

async function taskWithOracle(name: string, oracleSource: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "task.json"), manifest(name));
  await writeFile(join(dir, "visible.json"), JSON.stringify([{ id: "v1", n: 1 }]));
  await writeFile(join(dir, "heldout.json"), JSON.stringify([{ id: "h1", n: 2 }]));
  await writeFile(
    join(dir, "grader.ts"),
    `import { defineGrader, z } from "evolve/task";
export const grader = defineGrader({
  instanceSchema: z.object({ id: z.string(), n: z.number() }),
  async grade() { return { score: 0, value: null, feedback: "" }; },
});
${oracleSource}`,
  );
  return dir;
}

const good = `description: "{ n }", proposalSchema: z.object({ n: z.number() }), judge: (p, id) => ({ ok: true, instance: { id, n: p.n }, verdict: "n" })`;

async function problem(dir: string): Promise<string> {
  const error = await loadTask(dir).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(EvolveError);
  expect((error as EvolveError).code).toBe("invalid_task");
  return (error as EvolveError).message;
}

describe("loadTask and the oracle export", () => {
  it("gives null without an oracle and the oracle when grader.ts exports one", async () => {
    expect((await loadTask(await taskWithOracle("no-oracle", ""))).oracle).toBeNull();
    const task = await loadTask(await taskWithOracle("with-oracle", `export const oracle = { ${good}, limits: { perRound: 3, maxBytes: 100 }, passScore: 0.5 };`));
    expect(task.oracle?.limits).toEqual({ perRound: 3, maxBytes: 100 });
    expect(task.oracle?.passScore).toBe(0.5);
  });

  it("reports a malformed oracle as one invalid_task problem naming the field and what to write", async () => {
    const cases: [string, string, RegExp][] = [
      ["bad-per-round", `export const oracle = { ${good}, limits: { perRound: 0, maxBytes: 100 } };`, /`oracle\.limits\.perRound` is 0; give it an integer from 1 to 100/],
      ["bad-max-bytes", `export const oracle = { ${good}, limits: { perRound: 2, maxBytes: 70000 } };`, /`oracle\.limits\.maxBytes` is 70000; give it an integer from 1 to 65536/],
      ["bad-pass-score", `export const oracle = { ${good}, limits: { perRound: 2, maxBytes: 9 }, passScore: 0 };`, /`oracle\.passScore` is 0; give it a number above 0/],
      ["no-judge", `export const oracle = { description: "x", proposalSchema: z.object({}), limits: { perRound: 2, maxBytes: 9 } };`, /`oracle\.judge` is missing; give it judge\(proposal, id\)/],
      ["no-schema", `export const oracle = { description: "x", proposalSchema: {}, limits: { perRound: 2, maxBytes: 9 }, judge() {} };`, /`oracle\.proposalSchema` is an object of another shape; give it the zod schema/],
      ["empty-description", `export const oracle = { ${good.replace('"{ n }"', '""')}, limits: { perRound: 2, maxBytes: 9 } };`, /`oracle\.description` is ""; give it a non-empty string/],
      ["not-object", `export const oracle = 5;`, /`oracle` is 5; export const oracle = defineOracle/],
    ];
    for (const [name, source, pattern] of cases) {
      const message = await problem(await taskWithOracle(name, source));
      expect(message, name).toMatch(pattern);
      expect(message.split("\n- ")).toHaveLength(2);
    }
  });

  it("loads the arena fixtures and the built-in tasks that have oracles", async () => {
    for (const dir of ["tests/security/fixtures/sec-arena", "tests/arena/fixtures/trap-oracle"]) {
      const task = await loadTask(join(import.meta.dirname, "../..", dir));
      expect(typeof task.oracle?.judge).toBe("function");
    }
  });
});
