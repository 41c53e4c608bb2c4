/**
 * The benchmark scripts check their arguments before anything runs: a benchmark can take
 * hours, so a mistyped option must stop it, not run the defaults over earlier results.
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../..");

function bench(script: string, ...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", join(REPO, "bench", script), ...args], { cwd: REPO, encoding: "utf8", timeout: 60_000 });
}

describe("benchmark arguments", () => {
  it("--help prints the usage line and exits 0 without measuring", () => {
    const r = bench("search.ts", "--help");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: npx tsx bench\/search\.ts \[--generations 60\]/);
    expect(r.stdout).not.toMatch(/search efficiency/);
  });

  it("stops with exit 2 on a mistyped option, naming it", () => {
    const r = bench("search.ts", "--generation", "60");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^unknown argument: --generation\nusage: /);
  });

  it("stops with exit 2 when an option's value is missing", () => {
    const r = bench("throughput.ts", "--workers", "--generations", "5");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^--workers needs a value/);
  });

  it("cost-hindsight stops with exit 2 and says what to pass when the reference file has no run of today's settings", () => {
    const r = bench("cost-hindsight.ts", "--tasks", "snake", "--reference", "no-such-cost-file");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/skipped bench\/results\/no-such-cost-file\.json: ENOENT/);
    expect(r.stderr).toMatch(/no run of today's settings for snake in bench\/results\/no-such-cost-file\.json \(--reference names a cost bench file\)/);
  });
});
