/**
 * Hostile workspace archives. Made for real inside a self-modification container by a
 * hostile meta agent (symlink to /etc, hard link, 20k files, a sparse 10 GB file; and forged
 * protocol lines whose tree escapes, is absolute, oversized, not base64, or puts a file where a
 * folder is, with improve's result and with an evaluate request), and
 * hand-built by tar-builder for what a real filesystem cannot hold (`..` and absolute
 * paths, links followed by writes through them, lying sizes, entries below files). Each is
 * refused before a byte is written, and nothing outside the destination changes.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { expect } from "vitest";
import { setImmediate as nextTurn } from "node:timers/promises";
import { FILES_PER_TURN } from "../../../harness/src/kernel/index.js";
import { DEFAULT_EXTRACT_CAPS, extractSafely, runImprove } from "../../../sandbox/src/index.js";
import { extractTree } from "../../../sandbox/src/extract/index.js";
import { writeJsBuild } from "../../support/js-build.js";
import { buildTar, type TarSpecEntry } from "../../support/tar-builder.js";
import type { CaseContext, CaseVerdict } from "../support/security-env.js";

const PARENT_TREE = new URL("../../fixtures/validation/base/", import.meta.url).pathname;

const HOSTILE_META = `import * as fs from "node:fs";
export async function improve(request, ctx) {
  const A = "/work/agent";
  switch (request.attack) {
    case "symlink": fs.symlinkSync("/etc", A + "/etc-link"); fs.symlinkSync("/etc/passwd", A + "/task/passwd.ts"); break;
    case "hardlink": fs.linkSync(A + "/task/index.ts", A + "/task/hard.ts"); break;
    case "many-files": {
      fs.mkdirSync(A + "/many");
      for (let d = 0; d < 20; d++) { const dir = A + "/many/d" + d; fs.mkdirSync(dir); for (let i = 0; i < 1000; i++) fs.closeSync(fs.openSync(dir + "/f" + i, "w")); }
      break;
    }
    case "sparse": { const fd = fs.openSync(A + "/task/huge.ts", "w"); fs.ftruncateSync(fd, 10 * 2 ** 30); fs.closeSync(fd); break; }
    // Forged protocol lines that carry a tree (the runner sends one with improve's result and
    // with each evaluate request): the host must hold it to the extractor's rules.
    default: {
      const file = (path, text) => ({ path, base64: Buffer.from(text).toString("base64") });
      const trees = {
        "forged-escape": { dirs: [], files: [file("../../neighbour.txt", "pwned")] },
        "forged-absolute": { dirs: [], files: [file("/tmp/evolve-forged-" + request.tag, "pwned")] },
        "forged-oversize": { dirs: [], files: [file("big.ts", "x".repeat(2 * 1024 * 1024))] },
        "forged-base64": { dirs: [], files: [{ path: "a.ts", base64: "**not base64**" }] },
        "forged-folder": { dirs: ["task/index.ts/inner"], files: [file("task/index.ts", "x")] },
      };
      const forged = request.attack === "forged-evaluate" ? trees["forged-escape"] : trees[request.attack];
      const line = request.attack === "forged-evaluate"
        ? { type: "evaluate", id: 4242, request: {}, tree: forged }
        : { type: "result", id: 0, ok: true, value: { summary: "forged", changedFiles: [] }, tree: forged };
      // Written whole: stdout is a pipe, and a long line meets EAGAIN on the way.
      let rest = Buffer.from(JSON.stringify(line) + "\\n");
      while (rest.length > 0) { try { rest = rest.subarray(fs.writeSync(1, rest)); } catch (e) { if (e.code !== "EAGAIN") throw e; } }
      if (request.attack === "forged-evaluate") await new Promise((r) => setTimeout(r, 300));
    }
  }
  return { summary: "hostile " + request.attack, changedFiles: [] };
}
`;

/** Names of everything under `dir`, recursively. */
async function listAll(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

/**
 * "many-files" makes 20,000 empty files, ten times the entry cap (sandbox/src/port/limits.ts):
 * enough that only the cap stops it. It made 200,000 until 2026-11-26, which under gVisor's
 * ptrace platform took most of a minute and a half of both cores and checked nothing more: the
 * byte cap on the archive is met by "sparse" here and by the 200k entries crafted below.
 */
const IN_CONTAINER: Record<string, RegExp> = {
  symlink: /^symbolic link refused: .*-> \/etc/,
  hardlink: /^hard link refused: /,
  "many-files": /^more than 2000 entries|^archive is larger than/,
  sparse: /over the \d+-byte cap|^archive is larger than/,
  "forged-escape": /^path escapes the destination/,
  "forged-absolute": /^absolute path/,
  "forged-oversize": /over the \d+-byte cap/,
  "forged-base64": /is not base64/,
  "forged-folder": /a file where an earlier entry has a folder|below a file/,
};

/** One hostile meta agent per variant, through runImprove; the tree never comes out. */
export async function containerArchives(c: CaseContext): Promise<CaseVerdict> {
  const build = await writeJsBuild({ meta: HOSTILE_META });
  const parent = await mkdtemp(join(tmpdir(), "evolve-sec-extract-"));
  await writeFile(join(parent, "neighbour.txt"), "untouched\n");
  try {
    const tag = randomBytes(6).toString("hex");
    const runs = await Promise.all(
      Object.entries(IN_CONTAINER).map(async ([attack, reason]) => {
        const takeTo = join(parent, attack);
        const started = Date.now();
        const result = await runImprove({
          engine: c.env.engine, image: c.env.image, labels: c.labels, runtime: c.runtime, buildDir: build,
          timeoutMs: 180_000, agentDir: PARENT_TREE, takeTo,
          init: { task: "sec-sum", seed: 1, llmAvailable: false, deadline: Date.now() + 180_000, request: { attack, tag } },
        });
        return { attack, reason, result, ms: Date.now() - started, takeTo };
      }),
    );
    // A forged evaluate request's tree: the draft's take is refused, nothing is written.
    const draftTakes: Promise<string>[] = [];
    const draftDir = join(parent, "forged-evaluate");
    const forgedEvaluate = await runImprove({
      engine: c.env.engine, image: c.env.image, labels: c.labels, runtime: c.runtime, buildDir: build,
      timeoutMs: 180_000, agentDir: PARENT_TREE, takeTo: join(await mkdtemp(join(tmpdir(), "evolve-sec-extract-ok-")), "tree"),
      init: { task: "sec-sum", seed: 1, llmAvailable: false, deadline: Date.now() + 180_000, request: { attack: "forged-evaluate", tag } },
      evaluate: {
        answer: (_request, workspace) => {
          const taken = workspace.take(draftDir).then((r) => (r.ok ? "taken!" : r.reason));
          draftTakes.push(taken);
          return taken.then(() => null);
        },
        unavailable: () => null,
      },
    });
    expect(forgedEvaluate.end, "forged-evaluate: the meta agent returned").toBeNull();
    expect(await Promise.all(draftTakes)).toEqual([expect.stringMatching(/^path escapes the destination/)]);
    expect(existsSync(draftDir), "forged-evaluate: nothing written").toBe(false);
    expect(existsSync(join(tmpdir(), `evolve-forged-${tag}`)), "forged-absolute: nothing written").toBe(false);
    for (const { attack, reason, result, takeTo } of runs) {
      expect(result.end, `${attack}: the meta agent returned`).toBeNull();
      expect(result.extracted.ok, attack).toBe(false);
      expect(result.extracted.ok ? "" : result.extracted.reason, attack).toMatch(reason);
      expect(existsSync(takeTo), `${attack}: nothing written`).toBe(false);
    }
    expect(await listAll(parent)).toEqual(["neighbour.txt"]);
    // Names only (each reason is asserted above): the results table keeps 160 characters a cell.
    const made = runs.filter((r) => !r.attack.startsWith("forged-")).map((r) => r.attack);
    const forged = [...runs.filter((r) => r.attack.startsWith("forged-")).map((r) => r.attack.slice("forged-".length)), "evaluate"];
    return { outcome: `${made.length + forged.length} trees refused, nothing written: ${made.join(", ")}; forged: ${forged.join(", ")}`, containMs: Math.max(...runs.map((r) => r.ms)) };
  } finally {
    await rm(build, { recursive: true, force: true });
    await rm(parent, { recursive: true, force: true });
  }
}

/** 200k empty file entries, produced lazily (the extractor stops reading at its cap). */
function manyEntries(count: number): Readable {
  return Readable.from(
    (function* () {
      yield buildTar([{ name: "agent/", type: "directory" }]).subarray(0, 512);
      for (let i = 0; i < count; i++) yield buildTar([{ name: `agent/f${i}`, content: "" }]).subarray(0, 512);
      yield Buffer.alloc(1024);
    })(),
  );
}

/**
 * A tree message at the extractor's entry cap (a forged one costs an agent nothing): it is
 * accepted, and written with the harness's event loop taking a turn every FILES_PER_TURN
 * entries, so it cannot hold every other child's work for the whole write (up to a second on a
 * slow disk). Two such trees: files, and folders alone (as many creations, no file among
 * them). Returns how many turns other work got while each was written.
 */
async function turnsWhileWritingTreesAtCaps(dest: string): Promise<{ files: number; folders: number }> {
  const count = DEFAULT_EXTRACT_CAPS.maxEntries - 1;
  const files = Array.from({ length: count }, (_, i) => ({ path: `d/f${i}.ts`, base64: Buffer.from(`export const n = ${i};\n`).toString("base64") }));
  const folders = ["d", ...Array.from({ length: count }, (_, i) => `d/f${i}`)];
  const filesTurns = await turnsWhile(async () => {
    const written = await extractTree({ dirs: ["d"], files }, join(dest, "files"));
    expect(written.ok ? written.files : written.reason).toBe(count);
  });
  const folderTurns = await turnsWhile(async () => {
    const written = await extractTree({ dirs: folders, files: [] }, join(dest, "folders"));
    expect(written.ok ? written.files : written.reason).toBe(0);
  });
  for (const turns of [filesTurns, folderTurns]) expect(turns).toBeGreaterThanOrEqual(Math.floor(count / FILES_PER_TURN) - 1);
  return { files: filesTurns, folders: folderTurns };
}

/** How many turns other work got on the event loop while `work` ran. */
async function turnsWhile(work: () => Promise<void>): Promise<number> {
  let done = false;
  let turns = 0;
  const ticker = (async () => {
    for (; !done; turns++) await nextTurn();
  })();
  try {
    await work();
  } finally {
    done = true;
    await ticker;
  }
  return turns;
}

/** Crafted archives straight into the extractor, as if a container had produced them. */
export async function craftedArchives(_c: CaseContext): Promise<CaseVerdict> {
  const parent = await mkdtemp(join(tmpdir(), "evolve-sec-crafted-"));
  const sentinelDir = join(parent, "sentinel");
  await rm(sentinelDir, { force: true, recursive: true });
  await writeFile(join(parent, "victim.txt"), "untouched\n");
  const absolute = join(tmpdir(), `evolve-sec-abs-${randomBytes(6).toString("hex")}`);
  const root: TarSpecEntry = { name: "agent/", type: "directory" };
  const cases: [string, Readable, RegExp][] = [
    ["../ path", Readable.from(buildTar([root, { name: "agent/../../victim.txt", content: "pwned" }])), /escapes the destination/],
    ["absolute path", Readable.from(buildTar([root, { name: absolute, content: "pwned" }])), /absolute path/],
    ["symlink then write through it", Readable.from(buildTar([root, { name: "agent/link", type: "symlink", linkName: parent }, { name: "agent/link/victim.txt", content: "pwned" }])), /symbolic link refused/],
    ["hard link out", Readable.from(buildTar([root, { name: "agent/hard", type: "hardlink", linkName: "../victim.txt" }])), /hard link refused/],
    ["fifo", Readable.from(buildTar([root, { name: "agent/pipe", type: "fifo" }])), /refused \(only files and directories\)/],
    ["10 GB declared size", Readable.from(buildTar([root, { name: "agent/huge.ts", declaredSize: 10 * 2 ** 30 }])), /over the \d+-byte cap/],
    ["entry below a file", Readable.from(buildTar([root, { name: "agent/a", content: "x" }, { name: "agent/a/b", content: "y" }])), /entry below a file/],
    ["duplicate entry", Readable.from(buildTar([root, { name: "agent/a", content: "x" }, { name: "agent/a", content: "y" }])), /duplicate entry/],
    ["200k tiny files", manyEntries(200_000), /more than 2000 entries|archive is larger than/],
  ];
  try {
    const started = Date.now();
    const outcomes: string[] = [];
    for (const [name, stream, reason] of cases) {
      const dest = join(parent, "dest");
      const result = await extractSafely(stream, dest, "agent");
      expect(result.ok, name).toBe(false);
      expect(result.ok ? "" : result.reason, name).toMatch(reason);
      expect(existsSync(dest), `${name}: nothing written`).toBe(false);
      outcomes.push(name);
    }
    expect(existsSync(absolute)).toBe(false);
    expect(await listAll(parent)).toEqual(["victim.txt"]);
    const turns = await turnsWhileWritingTreesAtCaps(join(parent, "at-caps"));
    return { outcome: `${outcomes.length} crafted archives refused before any write (${outcomes.join(", ")}); trees at the entry cap written with ${turns.files} (files) and ${turns.folders} (folders alone) turns of the event loop for other work`, containMs: Date.now() - started };
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}
