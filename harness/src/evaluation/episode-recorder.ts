/**
 * For graders of interactive tasks: records an episode frame by frame, within the caps of
 * GridEpisode (results/episode.ts), for `evolve watch` and the report to play back. Frames
 * past a cap are counted, not kept, so the artifact never outgrows its limit; what it
 * returns always parses.
 */
import type { Json } from "@evolve/contract";
import { EPISODE_CAPS, GridEpisode, type EpisodeLayer } from "../results/index.js";

export interface EpisodeRecorder {
  /** Adds one frame: per layer, the cells [x, y] it covers (a layer with a head lists it first). */
  frame(layers: readonly (readonly (readonly [number, number])[])[]): void;
  /** The episode so far, ending with `end` (a short line: "hit the wall"): a GridEpisode, as JSON for `artifact.episode`. */
  done(end: string): Json;
}

/** A recorder for a `width` × `height` grid with these layers (at most 4, e.g. the snake and the food). */
export function recordEpisode(grid: { width: number; height: number; layers: readonly EpisodeLayer[] }): EpisodeRecorder {
  const frames: number[][][] = [];
  let cells = 0;
  let truncated = 0;
  return {
    frame(layers) {
      const frame = layers.slice(0, grid.layers.length).map((layer) =>
        layer.filter(([x, y]) => x >= 0 && y >= 0 && x < grid.width && y < grid.height).map(([x, y]) => y * grid.width + x),
      );
      const size = frame.reduce((n, layer) => n + layer.length, 0);
      if (frames.length >= EPISODE_CAPS.frames || cells + size > EPISODE_CAPS.cells || frame.length !== grid.layers.length) {
        truncated++;
        return;
      }
      cells += size;
      frames.push(frame);
    },
    done(end) {
      // Parsed, so what goes into the artifact is what every reader accepts; optional keys are absent, never undefined.
      const episode: GridEpisode = GridEpisode.parse({
        kind: "grid",
        width: grid.width,
        height: grid.height,
        layers: grid.layers,
        frames,
        truncated,
        end: end.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").slice(0, EPISODE_CAPS.text),
      });
      return episode as Json;
    },
  };
}
