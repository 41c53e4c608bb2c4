import { execFileSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyPatch, diffLines, diffTrees, parsePatch, snapshotHash, splitLines, writeTree } from "../../harness/src/archive/index.js";
import { createRng } from "../../harness/src/selection/index.js";
import { mutateTree, randomTree, tempDir } from "./fixtures.js";

const tree = (entries: Record<string, string>): Map<string, string> => new Map(Object.entries(entries));

describe("line diff", () => {
  it("is a valid edit script whose length is minimal on a known case", () => {
    const a = splitLines("a\nb\nc\na\nb\nb\na\n");
    const b = splitLines("c\nb\na\nb\na\nc\n");
    const edits = diffLines(a, b);
    // Myers' paper example: edit distance 5.
    expect(edits.filter((e) => e.op !== "equal")).toHaveLength(5);
    const rebuilt = edits.flatMap((e) => (e.op === "delete" ? [] : e.op === "insert" ? [b[e.b]] : [a[e.a]]));
    expect(rebuilt).toEqual(b);
  });

  it("falls back to replace-all once the work budget is spent, and the script still rebuilds the target", () => {
    const a = splitLines("x\n" + "a\n".repeat(300) + "z\n");
    const b = splitLines("y\n" + "a\n".repeat(300) + "w\n");
    const minimal = diffLines(a, b);
    expect(minimal.filter((e) => e.op !== "equal")).toHaveLength(4);
    const budget = { left: 50 };
    const cut = diffLines(a, b, budget);
    expect(budget.left).toBeLessThanOrEqual(0);
    expect(cut.filter((e) => e.op === "equal")).toHaveLength(0);
    const rebuilt = cut.flatMap((e) => (e.op === "delete" ? [] : e.op === "insert" ? [b[e.b]] : [a[e.a]]));
    expect(rebuilt).toEqual(b);
    // A spent budget is shared: the next file of the same tree goes straight to replace-all
    // (beyond its common prefix and suffix, which cost one pass).
    expect(diffLines(splitLines("p\nq\n"), splitLines("r\np\n"), budget).filter((e) => e.op === "equal")).toHaveLength(0);
  });
});

describe("unified diff", () => {
  it("writes standard headers and hunks with three lines of context", () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join("");
    const after = before.replace("line 10\n", "line ten\n");
    const { patch, changes } = diffTrees(tree({ "task/index.ts": before }), tree({ "task/index.ts": after }));
    expect(patch).toBe(
      [
        "diff --git a/task/index.ts b/task/index.ts",
        "--- a/task/index.ts",
        "+++ b/task/index.ts",
        "@@ -7,7 +7,7 @@",
        " line 7",
        " line 8",
        " line 9",
        "-line 10",
        "+line ten",
        " line 11",
        " line 12",
        " line 13",
        "",
      ].join("\n"),
    );
    expect(changes).toEqual([{ path: "task/index.ts", change: "modified", additions: 1, deletions: 1 }]);
  });

  it("marks added, deleted and unterminated files", () => {
    const { patch, changes } = diffTrees(tree({ "old.ts": "x\n", "keep.ts": "a\nb" }), tree({ "keep.ts": "a\nc", "new.ts": "n\n" }));
    expect(patch).toContain("--- /dev/null\n+++ b/new.ts\n@@ -0,0 +1 @@\n+n\n");
    expect(patch).toContain("--- a/old.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n");
    expect(patch).toContain("@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
    expect(changes.map((c) => [c.path, c.change])).toEqual([
      ["keep.ts", "modified"],
      ["new.ts", "added"],
      ["old.ts", "deleted"],
    ]);
  });

  it("is empty for equal trees and applies to the same tree", () => {
    const t = tree({ "a.ts": "1\n", "b/c.ts": "2" });
    const { patch } = diffTrees(t, new Map(t));
    expect(patch).toBe("");
    const applied = applyPatch(t, patch);
    expect(applied.ok && [...applied.tree]).toEqual([...t]);
  });

  it("round-trips on random trees (property-style, seeded)", () => {
    const rng = createRng(20250101);
    for (let round = 0; round < 300; round++) {
      const from = randomTree(rng, 6);
      const to = rng.nextInt(4) === 0 ? randomTree(rng, 6) : mutateTree(rng, from);
      const { patch } = diffTrees(from, to);
      const applied = applyPatch(from, patch);
      if (!applied.ok) throw new Error(`round ${round}: ${applied.path} ${applied.reason}\n${patch}`);
      expect(new Map([...applied.tree].sort())).toEqual(new Map([...to].sort()));
    }
  });

  it("round-trips large files, including past the minimal-diff search limit", () => {
    const rng = createRng(5);
    const big = Array.from({ length: 3000 }, () => `v${rng.nextInt(50)}\n`);
    const edited = [...big];
    for (let k = 0; k < 400; k++) edited.splice(rng.nextInt(edited.length), rng.nextInt(2), `e${rng.nextInt(50)}\n`);
    const unrelated = Array.from({ length: 5000 }, (_, i) => `u${i}\n`);
    for (const to of [edited, unrelated]) {
      const from = tree({ "big.ts": big.join("") });
      const target = tree({ "big.ts": to.join("") });
      const applied = applyPatch(from, diffTrees(from, target).patch);
      expect(applied.ok && applied.tree.get("big.ts")).toBe(target.get("big.ts"));
    }
  });

  it("writes patches that git apply accepts and reproduces", async () => {
    const rng = createRng(99);
    const dir = await tempDir();
    for (let round = 0; round < 5; round++) {
      const from = mutateTree(rng, randomTree(rng, 5));
      const to = mutateTree(rng, from);
      const work = join(dir, `r${round}`);
      await mkdir(work);
      await writeTree(work, from);
      const { patch } = diffTrees(from, to);
      if (patch === "") continue;
      await writeFile(join(dir, `r${round}.diff`), patch);
      execFileSync("git", ["apply", "--unsafe-paths", `--directory=`, join(dir, `r${round}.diff`)], { cwd: work, stdio: "pipe" });
      for (const [path, text] of to) expect(await readFile(join(work, path), "utf8")).toBe(text);
    }
  });
});

describe("strict apply", () => {
  const before = tree({ "task/index.ts": Array.from({ length: 30 }, (_, i) => `const v${i} = ${i};\n`).join("") });
  const after = tree({ "task/index.ts": (before.get("task/index.ts") ?? "").replace("v5 = 5", "v5 = 50").replace("v25 = 25", "v25 = 250") });
  const { patch } = diffTrees(before, after);

  it("fails clearly on a tampered hunk line", () => {
    const tampered = patch.replace("+const v25 = 250;", "+const v25 = 999;").replace(" const v4 = 4;", " const v4 = 44;");
    const result = applyPatch(before, tampered);
    expect(result).toMatchObject({ ok: false, path: "task/index.ts", hunk: 1 });
    expect(!result.ok && result.reason).toMatch(/line 5 does not match/);
  });

  it("fails on a shifted hunk header instead of searching for a fit", () => {
    const shifted = patch.replace("@@ -3,7 +3,7 @@", "@@ -4,7 +4,7 @@");
    expect(shifted).not.toBe(patch);
    expect(applyPatch(before, shifted)).toMatchObject({ ok: false, hunk: 1 });
  });

  it("fails on a truncated patch, a missing file, and a file that already exists", () => {
    expect(applyPatch(before, patch.slice(0, patch.length - 20))).toMatchObject({ ok: false });
    expect(applyPatch(new Map(), patch)).toMatchObject({ ok: false, reason: "the patch changes a file that does not exist" });
    const add = diffTrees(new Map(), before).patch;
    expect(applyPatch(before, add)).toMatchObject({ ok: false, reason: "the patch adds a file that already exists" });
  });

  it("refuses paths that leave the tree", () => {
    const evil = "--- /dev/null\n+++ b/../../etc/passwd\n@@ -0,0 +1 @@\n+x\n";
    expect(applyPatch(new Map(), evil)).toMatchObject({ ok: false, reason: "unsafe path" });
  });

  it("a tampered patch that still applies gives a different tree (caught by the hash)", () => {
    // The hash the archive records for the child is that of the true tree; the honest patch reproduces it.
    const recorded = snapshotHash(after);
    const honest = applyPatch(before, patch);
    if (!honest.ok) throw new Error(`the honest patch does not apply: ${honest.reason}`);
    expect(snapshotHash(honest.tree)).toBe(recorded);
    const tampered = patch.replace("+const v25 = 250;", "+const v25 = 999;");
    expect(tampered).not.toBe(patch);
    const result = applyPatch(before, tampered);
    if (!result.ok) throw new Error(`the tampered patch was meant to apply: ${result.reason}`);
    expect(result.tree.get("task/index.ts")).toContain("const v25 = 999;");
    expect(snapshotHash(result.tree)).not.toBe(recorded);
  });

  it("parses hunk headers without counts", () => {
    const parsed = parsePatch("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
    expect(parsed.ok && parsed.files[0]?.hunks[0]).toMatchObject({ oldStart: 1, oldCount: 1, newStart: 1, newCount: 1 });
  });
});
