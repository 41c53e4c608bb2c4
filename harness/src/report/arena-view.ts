/**
 * The arms race of an arena run, for the terminal (`evolve show RUN arena`, `evolve tree`) and
 * the report: per round, the best code candidate's score on the suite right after the new
 * tests landed and again after the code phase, with its held-out score beside it.
 */
import type { RoundRecord, TesterRecord } from "../arena/index.js";
import { escapeHtml } from "./render-html.js";
import { formatScore } from "./run-summary.js";

export interface ArenaRoundView {
  round: number;
  complete: boolean;
  testers: number;
  proposed: number;
  admitted: number;
  retired: number;
  suite: number;
  /** Best candidate's suite score when the round's tests had landed. */
  afterTests: { best: string; suite: number | null };
  afterCode: { best: string; suite: number | null; visible: number | null; heldout: number | null } | null;
}

export function arenaRounds(rounds: readonly RoundRecord[], testers: readonly TesterRecord[]): ArenaRoundView[] {
  const byId = new Map(testers.map((t) => [t.id, t]));
  return rounds.map((r) => {
    const mine = r.testers.map((id) => byId.get(id)).filter((t) => t !== undefined);
    const after = r.standing.afterCode;
    return {
      round: r.round,
      complete: r.phase === "complete",
      testers: r.testers.length,
      proposed: mine.reduce((n, t) => n + t.proposals.length, 0),
      admitted: r.admitted.length,
      retired: r.retired.length,
      suite: r.suite.length,
      afterTests: { best: r.standing.afterTests.best, suite: r.standing.afterTests.suite },
      afterCode: after === null ? null : { best: after.best, suite: after.suite, visible: after.visible, heldout: after.heldout },
    };
  });
}

/** A table of the rounds for the terminal. */
export function arenaLines(view: readonly ArenaRoundView[]): string[] {
  if (view.length === 0) return ["arena: no round finished its test phase yet"];
  const lines = ["round  proposed  admitted  retired  suite  suite score: tests landed → after code  best   visible  held-out"];
  for (const r of view) {
    const after = r.afterCode;
    lines.push(
      `${String(r.round).padStart(5)}  ${String(r.proposed).padStart(8)}  ${String(r.admitted).padStart(8)}  ${String(r.retired).padStart(7)}  ${String(r.suite).padStart(5)}  ` +
        `${formatScore(r.afterTests.suite).padStart(19)} → ${(after === null ? "(code phase under way)" : formatScore(after.suite)).padEnd(16)}  ` +
        `${(after?.best ?? r.afterTests.best).padEnd(5)}  ${formatScore(after?.visible ?? null).padEnd(7)}  ${formatScore(after?.heldout ?? null)}`,
    );
  }
  return lines;
}

const W = 640;
const H = 200;
const PAD = { left: 34, right: 10, top: 10, bottom: 24 };

/**
 * The arms-race plot as static SVG (presentation attributes only, so the page's
 * Content-Security-Policy needs nothing new): the suite score falls when tests land and
 * recovers as code adapts; the held-out score of the round's best runs beside it.
 */
export function arenaSvg(view: readonly ArenaRoundView[]): string {
  if (view.length === 0) return "";
  const rounds = view.length;
  const x = (round: number, part: number): number => PAD.left + ((round - 1 + part * 0.8 + 0.1) / rounds) * (W - PAD.left - PAD.right);
  const y = (v: number): number => PAD.top + (1 - v) * (H - PAD.top - PAD.bottom);
  const suite: string[] = [];
  const heldout: string[] = [];
  for (const r of view) {
    if (r.afterTests.suite !== null) suite.push(`${x(r.round, 0).toFixed(1)},${y(r.afterTests.suite).toFixed(1)}`);
    if (r.afterCode?.suite != null) suite.push(`${x(r.round, 1).toFixed(1)},${y(r.afterCode.suite).toFixed(1)}`);
    if (r.afterCode?.heldout != null) heldout.push(`${x(r.round, 1).toFixed(1)},${y(r.afterCode.heldout).toFixed(1)}`);
  }
  const grid = [0, 0.5, 1].map((v) => `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/><text x="2" y="${y(v) + 3}" font-size="10">${v}</text>`).join("");
  const ticks = view.map((r) => `<text x="${x(r.round, 0.5).toFixed(1)}" y="${H - 6}" font-size="10">r${r.round}</text>`).join("");
  const title = escapeHtml(`best code score on the arena suite per round (tests landed, then after code) and its held-out score`);
  return `<svg width="100%" viewBox="0 0 ${W} ${H}" role="img" aria-label="${title}">${grid}${ticks}` +
    `<polyline points="${suite.join(" ")}" fill="none" stroke="#c0392b" stroke-width="2"/>` +
    `<polyline points="${heldout.join(" ")}" fill="none" stroke="#2c7fb8" stroke-width="2" stroke-dasharray="5 3"/></svg>`;
}

/** The report's arena section (empty for an ordinary run). */
export function arenaSection(view: readonly ArenaRoundView[]): string {
  if (view.length === 0) return "";
  return `<section id="arena-section"><h2>Arena: the arms race</h2>
<div class="legend"><span>red: best code candidate's score on the suite in force (it falls when new tests land, recovers as code adapts)</span><span>blue dashed: its held-out score (the fixed yardstick)</span></div>
${arenaSvg(view)}
<pre>${escapeHtml(arenaLines(view).join("\n"))}</pre>
</section>`;
}
