/**
 * A grader that cannot serve is refused before anything starts, with one line that says what
 * is wrong and what to do: never a bare module-resolution error or a stack trace. Each case
 * is a task folder outside the repository with no package.json or node_modules.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECKOUT_BIN, runEvolve } from "./cli-process.js";

let home: string;
// The small blank template: its checks are quicker than the seed's (the task is what fails here).
const AGENT = join(import.meta.dirname, "../../templates/agent");

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "evolve-bad-graders-"));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

async function taskFolder(name: string, grader: string, visible: unknown[] = [{ id: "v1", n: 1 }]): Promise<void> {
  const dir = join(home, name);
  await mkdir(dir);
  const manifest = { name, description: "d", metric: "m", direction: "maximize", instanceTimeoutMs: 1000, evaluationTimeoutMs: 5000, stages: { stage1Size: 1, threshold: 0 } };
  await writeFile(join(dir, "task.json"), JSON.stringify(manifest));
  await writeFile(join(dir, "visible.json"), JSON.stringify(visible));
  await writeFile(join(dir, "heldout.json"), JSON.stringify([{ id: "h1", n: 2 }]));
  await writeFile(join(dir, "grader.ts"), grader);
}

const GOOD_SHAPE = `import { defineGrader, z } from "evolve/task";
export const grader = defineGrader({
  instanceSchema: z.object({ id: z.string(), n: z.number().int() }),
  async grade() { return { score: 0, value: null, feedback: "" }; },
});
`;

const CASES: { name: string; grader: string; visible?: unknown[]; line: RegExp }[] = [
  {
    name: "throws-on-load",
    grader: `import { z } from "zod";\nconst limit = z.number().parse("not a number");\nexport const grader = limit;\n`,
    line: /^- grader\.ts: threw while loading at grader\.ts:2: ZodError: .*; top-level code must not throw \(do the work inside grade\(\)\)$/m,
  },
  {
    name: "exports-nothing",
    grader: `import { z } from "zod";\nz.string();\n`,
    line: /^- grader\.ts: exports no `grader` \(it exports nothing\); export const grader = defineGrader\(\{ instanceSchema, grade \}\) with defineGrader from "evolve\/task"$/m,
  },
  {
    name: "no-instance-schema",
    grader: `export const grader = { async grade() { return { score: 0, value: null, feedback: "" }; } };\n`,
    line: /^- grader\.ts: `grader\.instanceSchema` is missing; give it the zod schema of one instance, e\.g\. z\.object\(\{ id: z\.string\(\), \.\.\. \}\)$/m,
  },
  {
    name: "instances-off-schema",
    grader: GOOD_SHAPE,
    visible: [{ id: "v1", n: "one" }],
    line: /^- visible\.json\[0\] \(id "v1"\): n: .*; every instance must match grader\.instanceSchema$/m,
  },
  {
    name: "unknown-package",
    grader: `import leftPad from "left-pad";\nexport const grader = leftPad;\n`,
    line: /^- grader\.ts: cannot load: package 'left-pad' is not available \(.*\); a grader may import evolve\/task, zod, node: built-ins, files of the task folder, and packages in a node_modules beside it$/m,
  },
  {
    name: "throws-on-answers",
    grader: GOOD_SHAPE.replace('async grade() { return { score: 0, value: null, feedback: "" }; }', "async grade(i, solve) { const r = await solve({}); return { score: (r as any).value.length, value: 0, feedback: '' }; }"),
    line: /^- grader\.ts: on visible\.json instance "v1" with the answer null, grader error: .*; grade\(\) must score any answer \(0 with a reason\) and never throw$/m,
  },
];

describe("a grader that cannot serve", () => {
  beforeAll(async () => {
    for (const c of CASES) await taskFolder(c.name, c.grader, c.visible);
  });

  it.each(CASES)("$name: one line from evolve check and from evolve run, and nothing starts", async ({ name, line }) => {
    const checked = await runEvolve(CHECKOUT_BIN, ["check", "--task", name], home);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(line);
    const run = await runEvolve(CHECKOUT_BIN, ["run", "--task", name, "--agent", AGENT, "--generations", "1", "--out", "runs"], home);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(line);
    expect(run.stderr).toContain("nothing was started");
    for (const output of [checked.stdout, run.stderr]) {
      expect(output).not.toMatch(/Cannot find package '(zod|evolve)/);
      expect(output).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
    }
    expect(run.stdout).not.toMatch(/^run run-/m);
    expect(await readdir(join(home, "runs")).catch(() => [])).toEqual([]);
  });
});
