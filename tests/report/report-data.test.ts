/** The report's data and page, without a browser: escaping, CSP, caps, progress series. */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { capPatch, contentSecurityPolicy, escapeHtml, jsonForScript, pageScript, progressSeries, writeReport } from "../../harness/src/report/index.js";
import type { SyntheticRun } from "./synthetic-archive.js";
import { HOSTILE_MESSAGE, HOSTILE_SUMMARY, writeSyntheticRun } from "./synthetic-archive.js";

let synth: SyntheticRun;
let html: string;

beforeAll(async () => {
  synth = await writeSyntheticRun({ generations: 30, seed: 3, runId: "data-run" });
  html = await readFile(await writeReport(synth.runDir), "utf8");
});
afterAll(async () => synth?.cleanup());

describe("embedding", () => {
  it("JSON for a script block has no '<', no raw line separators, and parses back to the value", () => {
    const value = { a: HOSTILE_SUMMARY, b: HOSTILE_MESSAGE, c: "\u2029&" };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it("agent-written text never appears raw in the page", () => {
    expect(html).not.toContain(HOSTILE_SUMMARY);
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<svg onload");
    // One </script> per script element: nothing in the data closes a block early.
    expect(html.match(/<\/script>/g)?.length).toBe(html.match(/<script[ >]/g)?.length);
  });

  it("loads nothing: no src or href attributes, a CSP that forbids the network and allows the page's own script by hash", async () => {
    // Markup only: the data blocks hold agent text such as "src=x", inert without a "<".
    const markup = html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, "");
    expect(markup).not.toMatch(/\s(src|href)\s*=/i);
    expect(markup).not.toMatch(/https?:/);
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    expect(script).toBe(await pageScript());
    const csp = contentSecurityPolicy(script);
    expect(html).toContain(`content="${escapeHtml(csp)}"`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    const hash = createHash("sha256").update(script).digest("base64");
    expect(csp).toContain(`'sha256-${hash}'`);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    expect(csp).toContain(`'sha256-${createHash("sha256").update(style).digest("base64")}'`);
  });
});

describe("caps", () => {
  it("a long patch is cut at a line under the cap, and says so", () => {
    const patch = Array.from({ length: 5000 }, (_, i) => `+line ${i} ${"x".repeat(40)}`).join("\n");
    const cut = capPatch(patch, 10_000);
    expect(Buffer.byteLength(cut)).toBeLessThan(10_200);
    expect(cut).toMatch(/\n… patch cut at/);
    expect(patch.startsWith(cut.slice(0, cut.indexOf("…")))).toBe(true);
    expect(capPatch("small\n", 10_000)).toBe("small\n");
  });
});

describe("progress series", () => {
  it("best and median of the valid visible scores so far, at each generation", () => {
    const series = progressSeries(synth.records);
    expect(series).toHaveLength(synth.records.length);
    synth.records.forEach((_, k) => {
      const sofar = synth.records.slice(0, k + 1).filter((g) => g.status.kind === "valid" && g.scores.visible !== null);
      const scores = sofar.map((g) => g.scores.visible as number).sort((a, b) => a - b);
      const mid = scores.length >> 1;
      const median = scores.length % 2 === 1 ? scores[mid] : ((scores[mid - 1] ?? 0) + (scores[mid] ?? 0)) / 2;
      expect(series[k]?.best.visible).toBe(Math.max(...scores));
      expect(series[k]?.median.visible).toBeCloseTo(median ?? NaN, 12);
    });
  });
});
