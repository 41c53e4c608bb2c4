/**
 * An archive that cannot be written is a harness failure in words: which folder, why, what to
 * do; exit 1, never "already exists" or an internal error. Through the real binary on real
 * file systems (a read-only mount, a full one, a file where a folder should be) for run,
 * resume, report, approve and reject; the reasons no mount can stage as root (permission,
 * quota) through the one translation they share.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unwritableArchive } from "../../harness/src/archive/index.js";
import { CHECKOUT_BIN, runEvolve, type CliRun } from "../byo/cli-process.js";
import { writeSyntheticRun } from "../report/synthetic-archive.js";

/** Mounting file systems takes root (the test machine's `npm test` runs as root). */
const IS_ROOT = process.getuid?.() === 0;
// In CI these cases never skip: not being root there fails them (mount refuses), loudly.
const AS_ROOT = IS_ROOT || process.env["CI"] !== undefined;

let scratch: string;
const mounts: string[] = [];

function mount(dir: string, options: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir]);
  mounts.push(dir);
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "evolve-unwritable-"));
  if (!AS_ROOT) return;
  // A finished run with a child that could be approved, on a file system remounted read-only.
  const synthetic = await writeSyntheticRun({ generations: 3, runId: "ro-run", invalidShare: 0 });
  const readOnly = join(scratch, "read-only");
  mount(readOnly, "size=8m");
  cpSync(synthetic.runDir, join(readOnly, "ro-run"), { recursive: true });
  await synthetic.cleanup();
  execFileSync("mount", ["-o", "remount,ro", readOnly]);
  // A file system with no room left: every inode taken.
  const full = join(scratch, "full");
  mount(full, "size=1m,nr_inodes=16");
  for (let i = 0; ; i++) {
    try {
      writeFileSync(join(full, `f${i}`), "");
    } catch {
      break;
    }
  }
}, 120_000);

afterAll(() => {
  for (const dir of mounts.reverse()) execFileSync("umount", [dir]);
  rmSync(scratch, { recursive: true, force: true });
});

/** The message says which folder and why in one line, then what to do; exit 1; nothing else. */
function expectWords(result: CliRun, command: string, folder: string, why: string): void {
  const lines = result.stderr.trim().split("\n");
  expect(result.code, result.stderr).toBe(1);
  expect(lines[0]).toBe(`evolve ${command}: cannot write ${folder}: ${why}`);
  expect(lines[1]).toMatch(/^ {2}what to do: \S/);
  expect(lines).toHaveLength(2);
}

describe("an unwritable archive", () => {
  it.skipIf(!AS_ROOT).each([
    ["report", ["report", "ro-run"]],
    ["approve", ["approve", "ro-run", "g0001", "--note", "fine"]],
    ["reject", ["reject", "ro-run", "g0002", "--reason", "no"]],
    ["resume", ["resume", "ro-run"]],
  ])("%s on a read-only file system says so", async (command, args) => {
    const root = join(scratch, "read-only");
    const result = await runEvolve(CHECKOUT_BIN, [...args, "--out", root], scratch, 60_000);
    expectWords(result, command, `the run folder ${join(root, "ro-run")}`, "the file system there is read-only");
    expect(result.stderr).toMatch(/remount it read-write, or copy the run folder somewhere writable/);
  });

  it.skipIf(!AS_ROOT)("run on a full file system says the disk is full", async () => {
    const root = join(scratch, "full", "runs");
    const result = await runEvolve(CHECKOUT_BIN, ["run", "--generations", "1", "--out", root], scratch, 60_000);
    expectWords(result, "run", `the archive in ${root}`, "the disk is full");
    expect(result.stderr).toMatch(/free some space there/);
  });

  it("run with --out under a file says which path is a file", async () => {
    writeFileSync(join(scratch, "notes.txt"), "a file\n");
    const result = await runEvolve(CHECKOUT_BIN, ["run", "--generations", "1", "--out", join(scratch, "notes.txt", "runs")], scratch, 60_000);
    expectWords(result, "run", `the archive in ${join(scratch, "notes.txt", "runs")}`, `${join(scratch, "notes.txt")} is a file, not a folder`);
  });

  it.each([
    ["EACCES", "permission denied", /make it writable for user/],
    ["EPERM", "permission denied", /make it writable for user/],
    ["ENOSPC", "the disk is full", /free some space/],
    ["EDQUOT", "the disk quota is used up", /free some space/],
    ["EROFS", "the file system there is read-only", /remount it read-write/],
    ["ENOTDIR", "it is a file, not a folder", /give --out a folder/],
  ])("%s is put in words", (code, why, hint) => {
    const error = unwritableArchive(Object.assign(new Error(code), { code }), "/data/runs", "new-run");
    expect(error?.code).toBe("archive_unwritable");
    expect(error?.message).toBe(`cannot write the archive in /data/runs: ${why}`);
    expect(error?.hint).toMatch(hint);
  });

  it("other errors are not mistaken for it", () => {
    expect(unwritableArchive(Object.assign(new Error("x"), { code: "ENOENT" }), "/x", "run")).toBeNull();
    expect(unwritableArchive(new Error("plain"), "/x", "run")).toBeNull();
  });
});
