/**
 * No silent zero, as a new user meets it: `evolve new task`, then a run with the default
 * agent (which does not know the new task), says while it runs and in its summary that the
 * seed fails every instance for one reason and what to do; a grader that throws only on real
 * answers (so `evolve check` passes) is counted and named. The real binary, real containers.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECKOUT_BIN, runEvolve } from "../byo/cli-process.js";

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "evolve-silent-zero-"));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("a run that cannot improve says why", () => {
  it("a new task with the default agent: the hint, the live lines and the summary say it", async () => {
    const created = await runEvolve(CHECKOUT_BIN, ["new", "task", "word-freq"], work, 60_000);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/the default agent \(seed-agent\/\) knows only the built-in tasks: on word-freq its solve throws/);
    expect(created.stdout).toMatch(/give a model \(--model, with OPENAI_BASE_URL\)/);
    expect(created.stdout).toMatch(/evolve new agent my-agent, +add a case for "word-freq"/);

    const run = await runEvolve(CHECKOUT_BIN, ["run", "--task", "./word-freq", "--generations", "0", "--workers", "1", "--out", "runs"], work, 400_000);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/: task word-freq, 0 generations, 1 worker, selection/);
    const said = /g0000 scored 0 on every visible instance it ran \(\d+\), each for the same reason: .*this agent does not know the task "word-freq"\n/;
    expect(run.stdout).toMatch(said);
    expect(run.stdout).toMatch(/ {2}what to do: the offline strategy only tunes the agent's knobs and cannot write a solver: give a model/);
    expect(run.stdout).toMatch(/why no improvement: g0000 scored 0 on every visible instance it ran \(\d+\), each for the same reason: .*does not know the task "word-freq"\n/);
  }, 420_000);

  it("a grader that throws on real answers: named as it happens and in the summary", async () => {
    const task = join(work, "graders", "email-validation");
    await cp(resolve(import.meta.dirname, "../../tasks/email-validation"), task, { recursive: true, filter: (from) => !from.endsWith(".test.ts") });
    const grader = join(task, "grader.ts");
    const source = await readFile(grader, "utf8");
    const anchor = "    const wrong = instance.addresses.filter";
    expect(source).toContain(anchor);
    // Stand-in answers never get this far (they are not arrays of the right length), real ones do.
    await writeFile(grader, source.replace(anchor, `    if (check.answer.some((v) => v)) throw new Error("cannot score an accepted address");\n${anchor}`));
    const checked = await runEvolve(CHECKOUT_BIN, ["check", "--task", task], work, 120_000);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);

    const run = await runEvolve(CHECKOUT_BIN, ["run", "--task", task, "--generations", "0", "--workers", "1", "--out", "runs"], work, 400_000);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/g0000: \d+ instances? scored 0 because the grader failed \(\S+: grader error: cannot score an accepted address\); fix grader\.ts/);
    expect(run.stdout).toMatch(/grader errors: \d+ instances? in 1 generation scored 0 because the grader failed \(e\.g\. g0000 \S+: grader error: cannot score an accepted address\)/);
  }, 420_000);
});
