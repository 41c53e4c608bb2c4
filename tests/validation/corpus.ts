/**
 * The validation corpus: fixture overlays under tests/fixtures/validation applied to a copy
 * of the base fixture agent, plus cases that are built at test time (links, a 50 MB file,
 * odd names) because they cannot or should not be committed.
 */
import { cp, link, mkdir, mkdtemp, open, readdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod";

const FIXTURES = resolve(import.meta.dirname, "../fixtures/validation");
export const BASE_DIR = join(FIXTURES, "base");
export const SEED_DIR = resolve(import.meta.dirname, "../../seed-agent");

const CaseFile = z.object({
  description: z.string(),
  stage: z.enum(["policy", "compile", "signature", "import"]).optional(),
  code: z.string().optional(),
  delete: z.array(z.string()).default([]),
});

/** One corpus case: how to build the child tree and what validation must say. */
export interface CorpusCase {
  name: string;
  description: string;
  /** null: the rewrite must pass every gate. */
  expect: { stage: string; code: string } | null;
  /** Build the child tree in `childDir` (a copy of the base exists there already). */
  build(childDir: string, scratch: string): Promise<void>;
}

async function overlayCases(kind: "broken" | "valid"): Promise<CorpusCase[]> {
  const root = join(FIXTURES, kind);
  const cases: CorpusCase[] = [];
  for (const name of (await readdir(root)).sort()) {
    const spec = CaseFile.parse(JSON.parse(await readFile(join(root, name, "case.json"), "utf8")));
    const expect = spec.stage !== undefined && spec.code !== undefined ? { stage: spec.stage, code: spec.code } : null;
    if ((kind === "broken") !== (expect !== null)) throw new Error(`fixture ${kind}/${name}: expectation does not match its folder`);
    cases.push({
      name: `${kind}/${name}`,
      description: spec.description,
      expect,
      build: async (childDir) => {
        const overlay = join(root, name, "tree");
        if (await exists(overlay)) await cp(overlay, childDir, { recursive: true, force: true });
        for (const path of spec.delete) await rm(join(childDir, path));
      },
    });
  }
  return cases;
}

async function exists(path: string): Promise<boolean> {
  return readdir(path).then(
    () => true,
    () => false,
  );
}

/** Cases whose trees are made at test time in a temp folder. */
const BUILT_CASES: CorpusCase[] = [
  {
    name: "built/symlink",
    description: "a symbolic link to a host file",
    expect: { stage: "policy", code: "link" },
    build: (child) => symlink("/etc/hostname", join(child, "task", "link.ts")),
  },
  {
    name: "built/root-symlink",
    description: "the tree root itself is a symbolic link to a valid tree",
    expect: { stage: "policy", code: "link" },
    build: async (child) => {
      await writeFile(join(child, "task", "note.md"), "changed\n");
      await rename(child, `${child}-real`);
      await symlink(`${child}-real`, child);
    },
  },
  {
    name: "built/hard-link",
    description: "a hard link to a file outside the tree",
    expect: { stage: "policy", code: "link" },
    build: async (child, scratch) => {
      const outside = join(scratch, "outside.ts");
      await writeFile(outside, "export const secret = 1;\n");
      await link(outside, join(child, "task", "shared.ts"));
    },
  },
  {
    name: "built/fifty-megabytes",
    description: "a 50 MB file",
    expect: { stage: "policy", code: "file_too_large" },
    build: async (child) => {
      await mkdir(join(child, "data"));
      const handle = await open(join(child, "data", "weights.bin"), "w");
      await handle.truncate(50 * 1024 * 1024); // sparse: cheap to make, 50 MB to lstat
      await handle.close();
    },
  },
  {
    name: "built/path-outside-tree",
    description: "a file whose name walks out of the tree on another system (..\\..\\escape.ts)",
    expect: { stage: "policy", code: "path_outside_tree" },
    build: (child) => writeFile(join(child, "task", "..\\..\\escape.ts"), "export {};\n"),
  },
  {
    name: "built/too-many-files",
    description: "more files than the cap",
    expect: { stage: "policy", code: "too_many_files" },
    build: async (child) => {
      await mkdir(join(child, "notes"));
      await Promise.all(Array.from({ length: 1_001 }, (_, i) => writeFile(join(child, "notes", `n${i}.md`), "x")));
    },
  },
];

/** Every case of the corpus, broken first, sorted by name. */
export async function loadCorpus(): Promise<CorpusCase[]> {
  return [...(await overlayCases("broken")), ...BUILT_CASES, ...(await overlayCases("valid"))];
}

/** A scratch folder with `parent` (copy of `baseDir`) and `child` (the case applied to another copy). */
export async function prepareCase(c: CorpusCase, baseDir = BASE_DIR): Promise<{ scratch: string; parentDir: string; childDir: string; buildDir: string }> {
  const scratch = await mkdtemp(join(tmpdir(), "evolve-validation-"));
  const parentDir = join(scratch, "parent");
  const childDir = join(scratch, "child");
  await cp(baseDir, parentDir, { recursive: true });
  await cp(baseDir, childDir, { recursive: true });
  await c.build(childDir, scratch);
  return { scratch, parentDir, childDir, buildDir: join(scratch, "build") };
}

/** Runs tasks at most `limit` at a time; each caller gets its own promise. */
export function createLimiter(limit: number): <R>(work: () => Promise<R>) => Promise<R> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running >= limit) await new Promise<void>((wake) => waiting.push(wake));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
