/** The HTML report in Chromium marks pending, approved and rejected children apart and shows the decision. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArchiveWriter, DECISION_SCHEMA_VERSION, writeDecision, type GenerationRecord } from "../../harness/src/archive/index.js";
import { writeReport } from "../../harness/src/report/index.js";
import { AT, generationRecord, runRecord, scored } from "../support/records.js";

let browser: Browser;
let root: string;
let runDir: string;

const asks: Pick<GenerationRecord, "approval"> = { approval: { reasons: ["changes meta/index.ts (approval path meta/**)"], deadline: null, decision: null } };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "evolve-report-marks-"));
  const writer = await ArchiveWriter.create(root, runRecord({ id: "marks", status: "finished" }));
  const records = [
    generationRecord({ id: "g0000", ...scored(0.5) }),
    generationRecord({ id: "g0001", parent: "g0000", depth: 1, ...scored(0.9), ...asks }),
    generationRecord({ id: "g0002", parent: "g0000", depth: 1, ...scored(0.8), ...asks }),
    generationRecord({ id: "g0003", parent: "g0000", depth: 1, ...scored(0.7), ...asks }),
  ];
  for (const r of records) await writer.recordGeneration(r, { snapshotDir: null, patch: "", transcript: [], logs: {} });
  runDir = writer.runDir;
  const decision = { schemaVersion: DECISION_SCHEMA_VERSION, by: "ada", at: AT, timedOut: false } as const;
  await writeDecision(runDir, { ...decision, generation: "g0002", verdict: "approved", note: "reviewed" });
  await writeDecision(runDir, { ...decision, generation: "g0003", verdict: "rejected", note: "too risky" });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await rm(root, { recursive: true, force: true });
});

describe("the report of a supervised run", () => {
  it("marks pending, approved and rejected nodes apart and shows who decided", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(pathToFileURL(await writeReport(runDir)).href);
    await page.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
    expect(errors).toEqual([]);
    for (const [cls, id] of [["pending", "g0001"], ["approved", "g0002"], ["rejected", "g0003"]] as const) {
      expect(await page.locator(`#tree-svg .node.${cls}`).count(), cls).toBe(1);
      expect(await page.locator(`#tree-svg .node.${cls}`).getAttribute("data-id"), cls).toBe(id);
    }
    expect(await page.locator("#tree-svg .stage-mark").allTextContents()).toEqual(["?", "✓", "×"]);
    expect(await page.locator("#meta").textContent()).toContain("1 pending approval");
    await page.locator('#tree-svg .node[data-id="g0002"]').click();
    expect(await page.locator("#details").textContent()).toContain("approved by ada");
    await page.close();
  });
});
