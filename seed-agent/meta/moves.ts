/**
 * Moves: one knob changed from one value to another. Summaries list moves in a
 * machine-readable form, `name from→to (file)`, so a later generation reads its lineage
 * back, credits each move with the score change it caused, and keeps going or backs off;
 * and a sibling reads them in the request's attempts and does not try them again.
 */
import type { LineageStep } from "@evolve/contract";
import type { Knob } from "./knobs.js";

/** One knob change, as written in a summary. */
export interface Move {
  file: string;
  name: string;
  from: string;
  to: string;
}

/** What the lineage says about a knob's latest move. */
export interface Hint {
  /** +1 / -1: which way to move a numeric knob; 0: either way. */
  direction: 1 | -1 | 0;
  /** Multiplier on the step size. */
  stepMul: number;
  /** Relative chance of picking this knob. */
  weight: number;
  /** For choices and flags: the value to go back to after a move that hurt. */
  revertTo: string | null;
  /**
   * For choices and flags: the value a move that raised the score left, never gone back to
   * (for a flag, flipping it again would only undo the gain; "keep moving that way" has no
   * meaning there).
   */
  avoid: string | null;
}

export interface StepParams {
  stepScale: number;
  momentum: number;
  retreat: number;
}

const VALUE = String.raw`("(?:[^"\\]|\\.)*"|[^\s→;()]+)`;
const MOVE = new RegExp(String.raw`([\w$.@:]+) ${VALUE}→${VALUE} \(([^()]+)\)`, "g");

/**
 * Where a summary's drafts begin: moves named after it were tested and not kept, so the
 * lineage credits none of them (a sibling still reads them as tried: tried.ts).
 */
export const DRAFTS_MARK = " | drafts: ";

/** The part of a summary whose moves made the tree (everything before the drafts). */
export function keptPart(summary: string): string {
  const at = summary.indexOf(DRAFTS_MARK);
  return at < 0 ? summary : summary.slice(0, at);
}

/** The part of a summary that lists its drafts, kept ones included (from DRAFTS_MARK on; empty without one). */
export function draftsPart(summary: string): string {
  const at = summary.indexOf(DRAFTS_MARK);
  return at < 0 ? "" : summary.slice(at);
}

/** `name from→to (file); …` for a list of moves. */
export function formatMoves(moves: readonly Move[]): string {
  return moves.map((m) => `${m.name} ${m.from}→${m.to} (${m.file})`).join("; ");
}

/** Every move named in a summary (text that is not a move is ignored). */
export function parseMoves(summary: string): Move[] {
  return [...summary.matchAll(MOVE)].map((m) => ({ name: m[1] ?? "", from: m[2] ?? "", to: m[3] ?? "", file: m[4] ?? "" }));
}

/** Latest move per knob (`file|name`) within `memory` steps, with the score change it caused. */
export function knobHistory(lineage: readonly LineageStep[], memory: number): Map<string, { move: Move; delta: number }> {
  const history = new Map<string, { move: Move; delta: number }>();
  const first = Math.max(1, lineage.length - memory);
  for (let i = first; i < lineage.length; i++) {
    const step = lineage[i];
    const before = lineage[i - 1];
    if (!step || !before || step.score === null || before.score === null) continue;
    const delta = step.score - before.score;
    for (const move of parseMoves(keptPart(step.summary))) history.set(`${move.file}|${move.name}`, { move, delta });
  }
  return history;
}

/** How to move a knob given its latest credited move (none: explore either way). */
export function hintFor(entry: { move: Move; delta: number } | undefined, p: StepParams): Hint {
  if (!entry) return { direction: 0, stepMul: 1, weight: 1, revertTo: null, avoid: null };
  const from = Number(entry.move.from);
  const to = Number(entry.move.to);
  const moved: 1 | -1 | 0 = Number.isFinite(from) && Number.isFinite(to) && from !== to ? (to > from ? 1 : -1) : 0;
  if (entry.delta > 0) return { direction: moved, stepMul: p.momentum, weight: 4, revertTo: null, avoid: entry.move.from };
  if (entry.delta < 0) {
    const back: 1 | -1 | 0 = moved === 0 ? 0 : moved === 1 ? -1 : 1;
    return { direction: back, stepMul: p.retreat, weight: 2, revertTo: entry.move.from, avoid: null };
  }
  // A move that changed nothing: this knob matters little here, or the step was too small.
  return { direction: 0, stepMul: p.momentum, weight: 0.5, revertTo: null, avoid: null };
}

function formatNumber(value: number, int: boolean): string {
  return int ? String(Math.round(value)) : String(Number(value.toPrecision(4)));
}

/** A new source text for a knob, different from the current one; null when none exists. */
export function mutate(knob: Knob, hint: Hint, p: StepParams, random: () => number): string | null {
  const spec = knob.spec;
  switch (spec.kind) {
    case "flag": {
      const flipped = knob.text === "true" ? "false" : "true";
      return flipped === hint.avoid ? null : flipped;
    }
    case "choices": {
      const others = spec.options.filter((o) => o !== knob.text && o !== hint.avoid);
      if (hint.revertTo !== null && others.includes(hint.revertTo)) return hint.revertTo;
      return others[Math.floor(random() * others.length)] ?? null;
    }
    case "range": {
      const value = Number(knob.text);
      if (!Number.isFinite(value)) return formatNumber((spec.min + spec.max) / 2, spec.int);
      let direction: number = hint.direction === 0 ? (random() < 0.5 ? -1 : 1) : hint.direction;
      if ((direction > 0 && value >= spec.max) || (direction < 0 && value <= spec.min)) direction = -direction;
      const size = p.stepScale * hint.stepMul * (0.5 + random());
      const logScale = spec.min > 0 && spec.max / spec.min >= 20;
      let next = logScale
        ? value * Math.exp(direction * size * Math.log(spec.max / spec.min))
        : value + direction * size * (spec.max - spec.min);
      next = Math.min(spec.max, Math.max(spec.min, next));
      let text = formatNumber(next, spec.int);
      if (Number(text) === value) {
        const nudge = spec.int ? 1 : (spec.max - spec.min) / 100;
        text = formatNumber(Math.min(spec.max, Math.max(spec.min, value + direction * nudge)), spec.int);
      }
      return Number(text) === value ? null : text;
    }
    case "literal": {
      const value = Number(knob.text);
      const direction = hint.direction === 0 ? (random() < 0.5 ? -1 : 1) : hint.direction;
      const size = p.stepScale * hint.stepMul * (0.5 + random());
      let text = formatNumber(value * Math.exp(direction * size), spec.int);
      if (Number(text) === value) text = formatNumber(spec.int ? value + direction : value * (1 + direction * 0.05), spec.int);
      if (Number(text) < 0 || Number(text) === value) text = formatNumber(spec.int ? value + 1 : value * 1.05, spec.int);
      return text;
    }
    default: {
      const unknown: never = spec;
      return unknown;
    }
  }
}
