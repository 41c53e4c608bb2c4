/**
 * The policy gate refuses a child that adds, changes or deletes a protected path, naming it
 * (inside the bounded check worker, as every run checks a child); other changes pass, and
 * the seed (no parent) is the user's own tree.
 */
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createValidator, type StaticOutcome, type Validator } from "../../harness/src/validation/index.js";
import { BASE_DIR } from "../validation/corpus.js";

let scratch: string;
let validator: Validator;
let counter = 0;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "evolve-protected-"));
  validator = createValidator();
});
afterAll(async () => {
  await validator.close();
  await rm(scratch, { recursive: true, force: true });
});

/** A copy of the base agent with `edit` applied; checked against the unedited base. */
async function check(edit: (dir: string) => Promise<void>, protectedPaths: readonly string[], parent: string | null = BASE_DIR): Promise<StaticOutcome> {
  const child = join(scratch, `child-${counter++}`);
  await cp(BASE_DIR, child, { recursive: true });
  await edit(child);
  return validator.validateStatic({ parentDir: parent, childDir: child, buildDir: join(scratch, `build-${counter++}`), protectedPaths });
}

const appendTo = (path: string) => async (dir: string) => writeFile(join(dir, path), "\n// edited\n", { flag: "a" });

describe("protected paths at the policy gate", () => {
  it("refuse a change to a protected file, naming the path and the pattern", async () => {
    const outcome = await check(appendTo("meta/index.ts"), ["meta/**"]);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failure).toMatchObject({ stage: "policy", code: "protected_path", file: "meta/index.ts" });
    expect(outcome.failure.message).toContain("meta/**");
    expect(outcome.failure.message).toContain("modifies");
  });

  it("refuse adding and deleting under a protected folder", async () => {
    const added = await check((dir) => writeFile(join(dir, "task/extra.ts"), "export const x = 1;\n"), ["task/**"]);
    expect(added.ok === false && added.failure).toMatchObject({ code: "protected_path", file: "task/extra.ts" });
    const deleted = await check((dir) => rm(join(dir, "task/describe.ts")), ["task/describe.ts"]);
    expect(deleted.ok === false && deleted.failure).toMatchObject({ code: "protected_path", file: "task/describe.ts" });
    if (!deleted.ok) expect(deleted.failure.message).toContain("deletes");
  });

  it("let other changes through, and apply no diff rule to the seed", async () => {
    expect((await check(appendTo("task/index.ts"), ["meta/**"])).ok).toBe(true);
    expect((await check(appendTo("meta/index.ts"), [])).ok).toBe(true);
    expect((await check(appendTo("meta/index.ts"), ["meta/**"], null)).ok).toBe(true);
  });

  it("leave the empty-diff rule to a child that changed nothing", async () => {
    const same = await check(async () => undefined, ["meta/**"]);
    expect(same.ok === false && same.failure.code).toBe("empty_diff");
  });
});
