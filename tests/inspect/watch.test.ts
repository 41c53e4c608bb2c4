/**
 * `evolve watch` plays what the snake grader recorded: real games graded in-process by the
 * task's own grader against a host-side test player (test code, never an agent), stored
 * through the real ArchiveWriter. Nothing is re-run to watch them. A recorded episode is data
 * from the archive: one that does not parse (a cell off the board, a control character) is
 * refused in one line and drawn nowhere.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRun } from "../../harness/src/archive/index.js";
import { playEpisode, renderFrame } from "../../harness/src/cli/inspect/episode-player.js";
import { bestEpisode } from "../../harness/src/report/report-data.js";
import { episodeOf, type InstanceResult } from "../../harness/src/results/index.js";
import { evolve } from "./cli-harness.js";
import { evaluated, evaluationResult, generationRecord, stageResult } from "../support/records.js";
import { writeSnakeRun, type SnakeRun } from "../support/snake-games.js";

let snake: SnakeRun;
let runDir: string;
let games: InstanceResult[];

beforeAll(async () => {
  snake = await writeSnakeRun("snake-watch");
  runDir = snake.runDir;
  games = [...snake.visible, ...snake.heldout];
  // g0001: the same games, one episode tampered with after the fact (a cell off the board, an escape in its end).
  const broken = snake.visible.map((r, i) => (i === 0 ? { ...r, score: 1, artifact: { episode: { ...(r.artifact as { episode: object }).episode, end: "\u001b[2J gone", frames: [[[99_999], []]] } } } : r));
  const tampered = evaluated(evaluationResult([stageResult("stage1", broken)]));
  await snake.writer.recordGeneration(generationRecord({ id: snake.writer.allocateGenerationId(), parent: "g0000", depth: 1, ...tampered, snapshotHash: null }), { snapshotDir: null, patch: "", transcript: [], logs: {} });
}, 120_000);

afterAll(async () => {
  await snake?.cleanup();
});

describe("evolve watch", () => {
  it("plays the best-scoring visible game of a generation, frame by frame, without running anything", async () => {
    const best = [...games].filter((g) => g.split === "visible").sort((a, b) => b.score - a.score)[0]!;
    const episode = episodeOf(best.artifact);
    if (episode?.ok !== true) throw new Error("the grader recorded no episode");
    const r = await evolve("watch", runDir, "g0000");
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe(`g0000 ${best.id} (visible, score ${best.score.toFixed(4)})`);
    expect(lines[1]).toBe("@ snake head, o snake, * food");
    const frames = episode.episode.frames.length;
    expect(r.stdout.match(/^step \d+\/\d+$/gm)).toHaveLength(frames);
    expect(lines.at(-1)).toBe(`end: ${episode.episode.end}`);
    // Each printed board is the recorded frame: one head, the body, the food.
    const first = lines.slice(3, 3 + episode.episode.height + 2);
    expect(first).toEqual(renderFrame(episode.episode, 0));
    expect(first.join("").match(/@/g)).toHaveLength(1);
    expect(first.join("").match(/o/g)).toHaveLength(2);
    expect(first.join("").match(/\*/g)).toHaveLength(1);
  });

  it("plays a held-out game when named, labelled held-out, and lists the games when the name is unknown", async () => {
    const heldout = games.find((g) => g.split === "heldout")!;
    const r = await evolve("watch", runDir, "0", "--instance", heldout.id);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe(`g0000 ${heldout.id} (heldout, score ${heldout.score.toFixed(4)})`);
    const unknown = await evolve("watch", runDir, "g0000", "--instance", "game-99");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^evolve watch: g0000 has no recorded episode for instance game-99; it has: game-\d \(visible\), .*\(heldout\)/);
    expect(unknown.stderr.split("\n")).toHaveLength(1);
  });

  it("refuses a recorded episode that does not parse, in one line, drawing nothing", async () => {
    const r = await evolve("watch", runDir, "g0001");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^evolve watch: g0001 game-1: the recorded episode does not read \((end: no control characters|frames: frame 0 has a cell outside the 10×10 grid)\)$/);
    const data = await readRun(runDir);
    // The report leaves it out too, and shows the sound one of the same generation instead.
    expect((bestEpisode(data.generations.find((g) => g.id === "g0001")!))?.instance).not.toBe("game-1");
  });

  it("takes --speed within its range, as a usage line otherwise", async () => {
    const bad = await evolve("watch", runDir, "--speed", "0");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("evolve watch: --speed expects a number from 0.1 to 50, got \"0\" (see evolve watch --help)");
  });

  it("on a terminal redraws the board in place at the chosen speed", async () => {
    const found = episodeOf(games[0]!.artifact);
    if (found?.ok !== true) throw new Error("no episode");
    const writes: string[] = [];
    const waits: number[] = [];
    await playEpisode(found.episode, "title", 2, { isTTY: true, write: (t) => void writes.push(t), sleep: async (ms) => void waits.push(ms) });
    const frames = found.episode.frames.length;
    expect(waits).toHaveLength(frames - 1);
    expect(waits.every((ms) => ms === 1000 / 16)).toBe(true);
    // After the first board, every frame moves the cursor back over the board and its step line.
    expect(writes.filter((w) => w === `\x1b[${found.episode.height + 3}A`)).toHaveLength(frames - 1);
  });
});
