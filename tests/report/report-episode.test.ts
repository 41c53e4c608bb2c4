/**
 * The report animates a generation's recorded game beside the packing it already draws:
 * real snake games (tests/support/snake-games.ts) in Debian's Chromium through
 * playwright-core. The board moves step by step, pause stops it, the slider shows any step,
 * and a generation without an episode shows none.
 */
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReport } from "../../harness/src/report/index.js";
import { episodeOf } from "../../harness/src/results/index.js";
import { generationRecord, scored } from "../support/records.js";
import { writeSnakeRun, type SnakeRun } from "../support/snake-games.js";

const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let browser: Browser;
let snake: SnakeRun;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  snake = await writeSnakeRun("snake-report");
  // g0001 kept no evaluation (no episode to show).
  await snake.writer.recordGeneration(generationRecord({ id: snake.writer.allocateGenerationId(), parent: "g0000", depth: 1, ...scored(0.1, 0.1), snapshotHash: null }), { snapshotDir: null, patch: "", transcript: [], logs: {} });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${pathToFileURL(await writeReport(snake.runDir)).href}#g0000`);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await snake?.cleanup();
});

/** The step the player shows now. */
async function step(): Promise<number> {
  return Number(/step (\d+)/.exec((await page.locator("#episode .toolbar .muted").textContent()) ?? "")?.[1] ?? -1);
}

describe("the report's episode player", () => {
  it("animates the generation's best visible game, one board per step", async () => {
    const best = [...snake.visible].sort((a, b) => b.score - a.score)[0]!;
    const episode = episodeOf(best.artifact);
    if (episode?.ok !== true) throw new Error("no episode recorded");
    expect(await page.locator("#episode .muted").first().textContent()).toContain(`episode of ${best.id} (visible`);
    const cells = await page.locator("#episode-svg rect.episode-cell, #episode-svg rect.episode-head").count();
    expect(cells).toBeGreaterThanOrEqual(3);
    expect(await page.locator("#episode-svg rect.episode-head").count()).toBe(1);
    const before = await step();
    await page.waitForTimeout(600);
    expect(await step()).toBeGreaterThan(before);
    expect(problems).toEqual([]);
  });

  it("pauses, and shows any step from the slider", async () => {
    await page.locator("#episode-play").click();
    const paused = await step();
    await page.waitForTimeout(400);
    expect(await step()).toBe(paused);
    await page.locator("#episode-step").fill("0");
    expect(await step()).toBe(0);
  });

  it("shows no player for a generation without a recorded game", async () => {
    await page.locator("#tree-svg .node[data-id='g0001']").click();
    expect(await page.locator("#episode-svg").count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
