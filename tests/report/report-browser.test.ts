/**
 * The report in a real browser: Debian's Chromium (never a downloaded one) driven by
 * playwright-core, the file opened through a file:// URL.
 */
import { mkdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readPatch } from "../../harness/src/archive/index.js";
import { writeReport } from "../../harness/src/report/index.js";
import type { SyntheticRun } from "./synthetic-archive.js";
import { HOSTILE_MESSAGE, HOSTILE_SUMMARY, writeSyntheticRun } from "./synthetic-archive.js";

const OUTPUT = join(import.meta.dirname, "__output__");
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let browser: Browser;
let small: SyntheticRun;
let large: SyntheticRun;

/** Opens a report, collecting console errors, page errors and any request that is not the file itself. */
async function open(path: string): Promise<{ page: Page; problems: string[]; loadMs: number }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("request", (r) => {
    if (r.url() !== pathToFileURL(path).href) problems.push(`request: ${r.url()}`);
  });
  const started = Date.now();
  await page.goto(pathToFileURL(path).href);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
  return { page, problems, loadMs: Date.now() - started };
}

beforeAll(async () => {
  await mkdir(OUTPUT, { recursive: true });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  small = await writeSyntheticRun({ generations: 40, seed: 21, runId: "browser-run" });
  large = await writeSyntheticRun({ generations: 1000, seed: 22, runId: "browser-1k" });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await small?.cleanup();
  await large?.cleanup();
});

describe("report in Chromium", () => {
  it("loads without console errors or requests, shows one node per generation and their invalid marks", async () => {
    const { page, problems } = await open(await writeReport(small.runDir));
    try {
      expect(problems).toEqual([]);
      expect(await page.locator("#tree-svg .node").count()).toBe(small.records.length);
      expect(await page.locator("#tree-svg .node.invalid").count()).toBe(small.records.filter((g) => g.status.kind === "invalid").length);
      expect(await page.locator("#tree-svg .stage-mark").count()).toBe(small.records.filter((g) => g.status.kind === "invalid").length);
      // The best lineage is highlighted, root to best.
      const bestPath = await page.locator("#tree-svg .node.best").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")));
      expect(bestPath.length).toBeGreaterThan(0);
      expect(bestPath).toContain("g0000");
      await page.screenshot({ path: join(OUTPUT, "report.png") });
      expect((await stat(join(OUTPUT, "report.png"))).size).toBeGreaterThan(10_000);
    } finally {
      await page.close();
    }
  });

  it("clicking a node shows its record, its diff against the parent and its packing", async () => {
    const { page, problems } = await open(join(small.runDir, "report.html"));
    try {
      const child = small.records.filter((g) => g.parent !== null && g.status.kind === "valid").at(-1)!;
      await page.locator(`#tree-svg .node[data-id='${child.id}']`).click();
      expect(await page.locator("#detail-head").textContent()).toContain(child.id);
      const shown = (await page.locator("#diff .l").allTextContents()).join("\n");
      expect(`${shown}\n`).toBe(await readPatch(small.runDir, child.id));
      expect(await page.locator("#diff .add").count()).toBeGreaterThan(0);
      expect(await page.locator("#diff .kw").count()).toBeGreaterThan(0);
      const best = child.evaluation!.stages.flatMap((s) => s.instances).filter((i) => i.artifact !== undefined).sort((a, b) => b.score - a.score)[0]!;
      expect(await page.locator("#packing-svg circle").count()).toBe((best.artifact as { circles: unknown[] }).circles.length);
      await page.screenshot({ path: join(OUTPUT, "report-node.png") });
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("shows hostile agent text as text and runs none of it", async () => {
    const { page, problems } = await open(join(small.runDir, "report.html"));
    try {
      const hostile = small.records.find((g) => g.summary === HOSTILE_SUMMARY)!;
      await page.locator(`#tree-svg .node[data-id='${hostile.id}']`).click();
      expect(await page.locator("#details").textContent()).toContain(HOSTILE_SUMMARY);
      const invalid = small.records.find((g) => g.status.kind === "invalid")!;
      await page.locator(`#tree-svg .node[data-id='${invalid.id}']`).click();
      expect(await page.locator("#details").textContent()).toContain(HOSTILE_MESSAGE.trim().slice(0, 20));
      expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator("img").count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("stays usable with 1,000 generations", async () => {
    const started = Date.now();
    const path = await writeReport(large.runDir);
    const writeMs = Date.now() - started;
    const bytes = (await stat(path)).size;
    const { page, problems, loadMs } = await open(path);
    try {
      expect(problems).toEqual([]);
      expect(await page.locator("#tree-svg .node").count()).toBe(1000);
      const last = large.records.filter((g) => g.snapshotHash !== null).at(-1)!;
      const clickStarted = Date.now();
      await page.locator("#goto").fill(last.id);
      await page.locator("#goto").press("Enter");
      await page.waitForFunction(`document.getElementById("detail-head").textContent.includes(${JSON.stringify(last.id)})`);
      const clickMs = Date.now() - clickStarted;
      expect((await page.locator("#diff .l").allTextContents()).join("\n")).toContain("diff --git");
      await page.screenshot({ path: join(OUTPUT, "report-1k.png") });
      console.log(`1,000 generations: report written in ${writeMs} ms, ${(bytes / 1e6).toFixed(2)} MB, loaded in ${loadMs} ms, node opened in ${clickMs} ms`);
      expect(bytes).toBeLessThan(10_000_000);
      expect(loadMs).toBeLessThan(15_000);
      expect(clickMs).toBeLessThan(5_000);
    } finally {
      await page.close();
    }
  });
});
