/**
 * The report's layout in a real browser (Debian's Chromium through playwright-core): the
 * chart's dots are big enough to see and click, the tree fills its panel, a 700-pixel window
 * does not scroll sideways, and the approval legend shows only under a run policy.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReport } from "../../harness/src/report/index.js";
import { writeSyntheticRun, type SyntheticRun } from "./synthetic-archive.js";

const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let browser: Browser;
let plain: SyntheticRun;
let supervised: SyntheticRun;

async function open(path: string, width: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(pathToFileURL(path).href);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
  return page;
}

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  plain = await writeSyntheticRun({ generations: 30, seed: 31, runId: "layout" });
  supervised = await writeSyntheticRun({ generations: 6, seed: 32, runId: "layout-policy" });
  const runJson = join(supervised.runDir, "run.json");
  const run = JSON.parse(await readFile(runJson, "utf8")) as Record<string, unknown>;
  await writeFile(runJson, JSON.stringify({ ...run, policy: { protectedPaths: ["meta/**"] } }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await plain?.cleanup();
  await supervised?.cleanup();
});

describe("report layout", () => {
  it("draws each generation's dot at a clickable size, and a click opens that generation", async () => {
    const page = await open(await writeReport(plain.runDir), 1400);
    try {
      const dots = page.locator("#chart-svg .own");
      expect(await dots.count()).toBe(plain.records.filter((r) => r.scores.visible !== null).length);
      const target = dots.nth(3);
      const box = await target.boundingBox();
      expect(box?.width ?? 0).toBeGreaterThanOrEqual(7);
      const id = await target.getAttribute("data-id");
      await target.click();
      expect(await page.locator("#detail-head").textContent()).toContain(id);
    } finally {
      await page.close();
    }
  });

  it("fills the tree's panel with the tree", async () => {
    const page = await open(await writeReport(plain.runDir), 1400);
    try {
      const tree = (await page.locator("#tree-svg").boundingBox())?.width ?? 0;
      const pane = await page.locator("#tree-wrap").evaluate((e) => e.clientWidth);
      expect(tree / pane).toBeGreaterThan(0.9);
    } finally {
      await page.close();
    }
  });

  it("does not scroll sideways in a 700-pixel window", async () => {
    const page = await open(await writeReport(plain.runDir), 700);
    try {
      const [scroll, client] = await page.locator("html").evaluate((e) => [e.scrollWidth, e.clientWidth]);
      expect(scroll).toBeLessThanOrEqual(client);
    } finally {
      await page.close();
    }
  });

  it("shows the approval legend only under a run policy", async () => {
    const without = await open(await writeReport(plain.runDir), 1400);
    const withPolicy = await open(await writeReport(supervised.runDir), 1400);
    try {
      expect(await without.locator("#policy-legend").isVisible()).toBe(false);
      expect(await withPolicy.locator("#policy-legend").isVisible()).toBe(true);
    } finally {
      await without.close();
      await withPolicy.close();
    }
  });
});
