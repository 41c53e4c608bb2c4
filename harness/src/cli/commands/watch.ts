/**
 * `evolve watch <run> [<gen>] [--instance ID] [--speed S]`: plays an episode a grader
 * recorded (the snake task records its games) in the terminal. No re-run: the frames come
 * from the archive, read through their schema; nothing of the agent executes.
 */
import type { GenerationRecord } from "../../archive/index.js";
import { readGeneration } from "../../archive/index.js";
import { EvolveError } from "../../kernel/index.js";
import { episodeOf, type GridEpisode } from "../../results/index.js";
import { formatScore } from "../../report/index.js";
import { oneLine } from "../../text/index.js";
import type { CliCommand } from "../command.js";
import { playEpisode } from "../inspect/episode-player.js";
import { loadRun, stringOption } from "../inspect/load-run.js";
import { OUT_HELP, resolveGenerationArg } from "../inspect/run-arg.js";
import { numberOption, usageProblem } from "../usage.js";

const SPEED_RULE = "a number from 0.1 to 50";

/** An instance of a record that has a recorded episode (or one that does not read). */
interface Recorded {
  id: string;
  split: string;
  score: number;
  episode: { ok: true; episode: GridEpisode } | { ok: false; reason: string };
}

/** Every instance of `record` with an episode, visible first, each split best-scoring first. */
export function recordedEpisodes(record: GenerationRecord): Recorded[] {
  const found: Recorded[] = [];
  for (const stage of record.evaluation?.stages ?? []) {
    for (const instance of stage.instances) {
      const episode = episodeOf(instance.artifact);
      if (episode !== null) found.push({ id: instance.id, split: instance.split, score: instance.score, episode });
    }
  }
  return found.sort((a, b) => (a.split === b.split ? b.score - a.score : a.split === "visible" ? -1 : 1));
}

/** The episode to play: the named instance's, or the best-scoring visible one. */
function pick(record: GenerationRecord, instance: string | undefined): Recorded {
  const all = recordedEpisodes(record);
  if (all.length === 0) {
    throw new EvolveError("unknown_generation", `${record.id} has no recorded episode (its task's grader records none, or it was not evaluated); the snake task records its games`);
  }
  const chosen = instance === undefined ? all[0] : all.find((r) => r.id === instance);
  if (chosen === undefined) {
    const listed = all.map((r) => `${oneLine(r.id, 60)} (${r.split})`).join(", ");
    throw new EvolveError("unknown_generation", `${record.id} has no recorded episode for instance ${oneLine(instance ?? "", 60)}; it has: ${oneLine(listed, 400)}`);
  }
  return chosen;
}

export const watch: CliCommand = {
  name: "watch",
  summary: "play a recorded episode (a snake game) of a generation in the terminal; nothing is re-run",
  help: `usage: evolve watch <run> [<gen>] [--instance ID] [--speed S] [--out DIR]
  <gen>          g0007, 7, best (default) or latest
  --instance ID  which instance's episode (default: the best-scoring visible one); held-out ones by their id
  --speed S      ${SPEED_RULE}: steps per second × S (default 1: 8 steps a second)
${OUT_HELP}
  On a terminal the board is redrawn in place; piped, every frame is printed once.
  The frames are what the task's grader recorded while it scored the generation (capped).`,
  options: { out: { type: "string" }, instance: { type: "string" }, speed: { type: "string" } },
  positionals: { min: 1, max: 2, names: "<run> [<gen>]" },
  async run({ values, positionals, out, err }) {
    const speed = numberOption(values, "speed", SPEED_RULE) ?? 1;
    if (speed < 0.1 || speed > 50) throw usageProblem("speed", SPEED_RULE, values["speed"]);
    const run = await loadRun(positionals[0] ?? "", stringOption(values["out"]), err);
    const id = resolveGenerationArg(positionals[1] ?? "best", run.generations);
    let record = await readGeneration(run.dir, id);
    // A duplicate was not evaluated again: its games are those of the generation it repeats.
    if (record.status.kind === "duplicate") record = await readGeneration(run.dir, record.status.of);
    const chosen = pick(record, stringOption(values["instance"]));
    if (!chosen.episode.ok) {
      throw new EvolveError("archive_corrupt", `${record.id} ${oneLine(chosen.id, 60)}: the recorded episode does not read (${oneLine(chosen.episode.reason, 200)})`);
    }
    const same = record.id === id ? "" : ` (the same tree as ${record.id})`;
    const title = `${id}${same} ${oneLine(chosen.id, 60)} (${chosen.split}, score ${formatScore(chosen.score)})`;
    const isTTY = process.stdout.isTTY === true;
    await playEpisode(chosen.episode.episode, title, speed, {
      isTTY,
      // Piped, through the command's output like every command's; on a terminal, drawn in place.
      write: (text) => (isTTY ? void process.stdout.write(text) : out(text.replace(/\n$/, ""))),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    return 0;
  },
};
