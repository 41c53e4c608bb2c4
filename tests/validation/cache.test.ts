/**
 * The shared compiler remembers clean files by the hash of what they can reach. These cases
 * change only a file's dependency (or a global declaration) and check that the unchanged
 * file is checked again and fails; plus concurrent validations on one validator.
 */
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createValidator, type Validator } from "../../harness/src/validation/index.js";
import { BASE_DIR } from "./corpus.js";

let validator: Validator;
let scratch: string;
let counter = 0;

/** A copy of the base agent with `files` written over it. */
async function tree(files: Record<string, string>): Promise<string> {
  const dir = join(scratch, `tree-${counter++}`);
  await cp(BASE_DIR, dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) await writeFile(join(dir, path), text);
  return dir;
}

async function check(childDir: string): Promise<string> {
  const outcome = await validator.validateStatic({ parentDir: BASE_DIR, childDir, buildDir: join(scratch, `build-${counter++}`) });
  return outcome.ok ? "ok" : `${outcome.failure.stage}/${outcome.failure.code}@${outcome.failure.file}`;
}

beforeAll(async () => {
  validator = createValidator();
  scratch = await mkdtemp(join(tmpdir(), "evolve-validation-cache-"));
});

afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("verified-file memory of the shared compiler", () => {
  it("re-checks an unchanged file when a module it imports changes its types", async () => {
    const helper = (returns: string, body: string): string =>
      `import type { Json } from "@evolve/contract";\nexport function describeInput(input: Json): ${returns} {\n  return ${body};\n}\n`;
    expect(await check(await tree({ "task/describe.ts": helper("string", "`${typeof input} v2`") }))).toBe("ok");
    expect(await check(await tree({ "task/describe.ts": helper("number", "JSON.stringify(input).length") }))).toBe(
      "compile/type_error@task/index.ts",
    );
  });

  it("re-checks an unchanged file when a global declaration elsewhere changes", async () => {
    const user = 'export const limit: number = LIMIT + 1;\n';
    expect(await check(await tree({ "task/env.d.ts": "declare const LIMIT: number;\n", "task/limit.ts": user }))).toBe("ok");
    expect(await check(await tree({ "task/env.d.ts": "declare const LIMIT: string;\n", "task/limit.ts": user }))).toBe(
      "compile/type_error@task/limit.ts",
    );
  });

  it("re-checks the signature when an entry's inferred type changes through a helper", async () => {
    const meta = [
      'import type { ImproveContext, ImproveRequest } from "@evolve/contract";',
      'import { report } from "./report.js";',
      "export async function improve(request: ImproveRequest, ctx: ImproveContext) {",
      "  ctx.log(request.generation.id);",
      "  return report();",
      "}",
      "",
    ].join("\n");
    const good = 'export function report() {\n  return { summary: "s", changedFiles: [] as string[] };\n}\n';
    const bad = "export function report() {\n  return { summary: 1, changedFiles: [] as string[] };\n}\n";
    expect(await check(await tree({ "meta/index.ts": meta, "meta/report.ts": good }))).toBe("ok");
    expect(await check(await tree({ "meta/index.ts": meta, "meta/report.ts": bad }))).toBe(
      "signature/signature_mismatch@meta/index.ts",
    );
  });

  it("keeps concurrent validations on one validator apart", async () => {
    const broken = await tree({ "task/describe.ts": 'export const describeInput = (input: unknown): string => 1;\n' });
    const fine = await tree({ "task/note.md": "changed\n" });
    const results = await Promise.all([check(broken), check(fine), check(broken), check(fine)]);
    expect(results).toEqual([
      "compile/type_error@task/describe.ts",
      "ok",
      "compile/type_error@task/describe.ts",
      "ok",
    ]);
  });
});
