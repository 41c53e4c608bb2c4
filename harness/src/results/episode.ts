/**
 * An episode an interactive grader recorded: a grid game's frames, step by step, as a bounded
 * part of an instance's artifact (`artifact.episode`). The trusted grader writes it, but it
 * sits in the archive like any record, so every reader (`evolve watch`, the report) takes it
 * through this schema: sizes capped, every cell inside the grid, every glyph one plain
 * character, so a bad record is refused, never drawn.
 *
 * A frame lists, per layer, the cells that layer covers (index = y × width + x); a layer may
 * mark its first cell as its head (the snake's). Nothing of the agent runs to show it: the
 * frames are data the grader wrote while it drove the candidate.
 */
import { z } from "zod";

/** Bounds that keep an episode well inside an instance's artifact cap (256 KiB of JSON). */
export const EPISODE_CAPS = {
  /** Cells on a side. */
  side: 64,
  /** Frames kept; later ones are counted in `truncated`. */
  frames: 2_000,
  /** Cells over all frames and layers (each at most ~5 bytes of JSON). */
  cells: 30_000,
  layers: 4,
  /** Characters of the closing line ("hit the wall"). */
  text: 200,
} as const;

/** One plain, printable character that is not a space: safe on a terminal and in the page. */
const Glyph = z.string().regex(/^[!-~]$/, "one printable ASCII character");

export const EpisodeLayer = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9-]{0,23}$/),
  glyph: Glyph,
  /** The glyph of the layer's first cell (the snake's head), when it has one. */
  head: Glyph.optional(),
});
export type EpisodeLayer = z.infer<typeof EpisodeLayer>;

const Side = z.number().int().min(1).max(EPISODE_CAPS.side);

export const GridEpisode = z
  .strictObject({
    kind: z.literal("grid"),
    width: Side,
    height: Side,
    layers: z.array(EpisodeLayer).min(1).max(EPISODE_CAPS.layers),
    /** frames[t][layer] = the cells that layer covers at step t. */
    frames: z.array(z.array(z.array(z.number().int().nonnegative()).max(EPISODE_CAPS.side ** 2))).max(EPISODE_CAPS.frames),
    /** Frames the recorder left out past its caps (the episode went on). */
    truncated: z.number().int().nonnegative(),
    /** How the episode ended, in the grader's words. */
    end: z.string().max(EPISODE_CAPS.text).regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, "no control characters"),
  })
  .superRefine((episode, ctx) => {
    const size = episode.width * episode.height;
    let cells = 0;
    for (const [t, frame] of episode.frames.entries()) {
      if (frame.length !== episode.layers.length) ctx.addIssue({ code: "custom", path: ["frames", t], message: `frame ${t} has ${frame.length} layers, not ${episode.layers.length}` });
      for (const layer of frame) {
        cells += layer.length;
        if (layer.some((cell) => cell >= size)) ctx.addIssue({ code: "custom", path: ["frames", t], message: `frame ${t} has a cell outside the ${episode.width}×${episode.height} grid` });
      }
    }
    if (cells > EPISODE_CAPS.cells) ctx.addIssue({ code: "custom", path: ["frames"], message: `${cells} cells in all, more than ${EPISODE_CAPS.cells}` });
  });
export type GridEpisode = z.infer<typeof GridEpisode>;

/** The episode of an instance's artifact: absent (null), or what the schema says of it. */
export function episodeOf(artifact: unknown): { ok: true; episode: GridEpisode } | { ok: false; reason: string } | null {
  if (typeof artifact !== "object" || artifact === null || !("episode" in artifact)) return null;
  const parsed = GridEpisode.safeParse((artifact as { episode: unknown }).episode);
  if (parsed.success) return { ok: true, episode: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, reason: `${issue?.path.join(".") || "episode"}: ${issue?.message ?? "invalid"}` };
}
