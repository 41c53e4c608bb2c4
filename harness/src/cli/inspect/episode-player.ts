/**
 * Plays a recorded grid episode in the terminal: the board as text, frame by frame. Nothing
 * is re-run and nothing of the agent executes: the frames are data the grader recorded,
 * parsed through GridEpisode (results/episode.ts), so only its checked glyphs and our own
 * text reach the terminal. On a terminal the board is redrawn in place at the chosen speed;
 * piped, every frame is printed once, one after the other.
 */
import type { GridEpisode } from "../../results/index.js";

/** Steps per second at --speed 1. */
export const BASE_STEPS_PER_SECOND = 8;

const EMPTY = ".";

/** The board of frame `t` as rows of text, framed by a border. */
export function renderFrame(episode: GridEpisode, t: number): string[] {
  const grid = Array.from({ length: episode.height }, () => Array<string>(episode.width).fill(EMPTY));
  const frame = episode.frames[t] ?? [];
  // The first layer (the snake) is drawn last, on top of the others.
  for (let layer = episode.layers.length - 1; layer >= 0; layer--) {
    const spec = episode.layers[layer]!;
    (frame[layer] ?? []).forEach((cell, k) => {
      const row = grid[Math.floor(cell / episode.width)];
      if (row !== undefined) row[cell % episode.width] = k === 0 && spec.head !== undefined ? spec.head : spec.glyph;
    });
  }
  const border = `+${"-".repeat(episode.width)}+`;
  return [border, ...grid.map((row) => `|${row.join("")}|`), border];
}

/** The legend line: what each glyph is. */
export function legend(episode: GridEpisode): string {
  return episode.layers.map((l) => `${l.head === undefined ? "" : `${l.head} ${l.name} head, `}${l.glyph} ${l.name}`).join(", ");
}

/** The closing line: how it ended, and the steps the recorder left out. */
export function closing(episode: GridEpisode): string {
  const cut = episode.truncated > 0 ? ` (${episode.truncated} later steps were not recorded)` : "";
  return `end: ${episode.end}${cut}`;
}

export interface PlayTarget {
  isTTY: boolean;
  write(text: string): void;
  /** Waits between frames (a test passes one that does not). */
  sleep(ms: number): Promise<void>;
}

/** Plays `episode` under `title` at `speed` × BASE_STEPS_PER_SECOND. */
export async function playEpisode(episode: GridEpisode, title: string, speed: number, target: PlayTarget): Promise<void> {
  const total = episode.frames.length;
  target.write(`${title}\n${legend(episode)}\n`);
  if (total === 0) {
    target.write(`no frames were recorded\n${closing(episode)}\n`);
    return;
  }
  const delay = 1000 / (BASE_STEPS_PER_SECOND * speed);
  const height = episode.height + 3;
  for (let t = 0; t < total; t++) {
    const lines = [`step ${t}/${total - 1}`, ...renderFrame(episode, t)];
    if (target.isTTY) {
      // Back over the previous board, each line cleared before it is written again.
      if (t > 0) target.write(`\x1b[${height}A`);
      target.write(lines.map((l) => `\x1b[2K${l}\n`).join(""));
      if (t < total - 1) await target.sleep(delay);
    } else {
      target.write(`${lines.join("\n")}\n`);
    }
  }
  target.write(`${closing(episode)}\n`);
}
