/** `evolve tree <run>`: the archive as a tree, the best path highlighted on a terminal. */
import { bestGeneration } from "../../selection/index.js";
import { plural } from "../../text/index.js";
import type { GenerationRecord } from "../../archive/index.js";
import { childrenCounts } from "../../archive/index.js";
import { approvalTag, arenaLines, arenaRounds, bestPath, byId, formatScore, visibleText } from "../../report/index.js";
import { readArena } from "../../arena/index.js";
import type { CliCommand } from "../command.js";
import { loadRun, printJson, stringOption } from "../inspect/load-run.js";
import { JSON_HELP, OUT_HELP } from "../inspect/run-arg.js";
import { dim, highlight, useColour } from "../inspect/table.js";
import { oneLine } from "../../text/index.js";
import { failureLabel } from "../../results/index.js";
import { approvalState } from "../../supervision/index.js";

export const tree: CliCommand = {
  name: "tree",
  summary: "the archive of a run as a tree: scores, status, invalid reason, children",
  help: `usage: evolve tree <run> [--out DIR] [--json]
  <run>       a run id under the archive root, or a path to a run folder
${OUT_HELP}
${JSON_HELP}`,
  options: { out: { type: "string" }, json: { type: "boolean" } },
  positionals: { min: 1, max: 1, names: "<run>" },
  async run({ values, positionals, out, err }) {
    const run = await loadRun(positionals[0] ?? "", stringOption(values["out"]), err);
    const gens = byId(run.generations);
    const counts = childrenCounts(gens);
    const path = new Set(bestPath(gens));
    const best = bestGeneration(gens);
    if (values["json"] === true) {
      printJson(out, {
        run: run.run?.id ?? null,
        best: best?.id ?? null,
        bestPath: [...path],
        nodes: gens.map((g) => ({
          id: g.id,
          parent: g.parent,
          depth: g.depth,
          status: g.status,
          scores: g.scores,
          children: counts.get(g.id) ?? 0,
          onBestPath: path.has(g.id),
          approval: g.approval ?? null,
          approvalState: approvalTag(g),
        })),
        warnings: run.warnings,
      });
      return 0;
    }
    const colour = useColour();
    for (const line of treeLines(gens, counts, path, best?.id ?? null, colour)) out(line);
    const waiting = gens.filter((g) => approvalState(g) === "pending").length;
    const pending = gens.some((g) => g.approval !== undefined) ? `, ${waiting} pending approval` : "";
    const duplicates = gens.filter((g) => g.status.kind === "duplicate").length;
    const arena = await readArena(run.dir);
    if (arena.rounds.length > 0) {
      out("");
      out(`arena: ${plural(arena.rounds.length, "round")}, ${plural(arena.testers.length, "test generation")} (evolve show ${positionals[0] ?? ""} arena has the suite); a generation's visible score includes the suite of its round`);
      for (const line of arenaLines(arenaRounds(arena.rounds, arena.testers))) out(line);
      out("");
    }
    out(`${plural(gens.length, "generation")}, ${gens.filter((g) => g.status.kind === "invalid").length} invalid${duplicates > 0 ? `, ${duplicates} duplicates` : ""}${pending}; best ${best === null ? "—" : `${best.id} (visible ${formatScore(best.scores.visible)}, held-out ${formatScore(best.scores.heldout)})`}`);
    return 0;
  },
};

function label(g: GenerationRecord, children: number, best: string | null): string {
  const scores = `${visibleText(g)} / ${formatScore(g.scores.heldout)}`;
  const tag = approvalTag(g);
  const status =
    g.status.kind === "invalid"
      ? `INVALID ${failureLabel(g.status)} ${oneLine(g.status.message, 80)}`
      : g.status.kind === "duplicate"
        ? `DUPLICATE of ${g.status.of} (same tree, not evaluated again)`
        : `valid${tag === null ? "" : ` ${tag}`}`;
  return `${g.id}  ${scores}  ${status}  children ${children}${g.id === best ? "  ★ best" : ""}`;
}

/** Depth-first lines with box-drawing prefixes; iterative so deep lineages cannot overflow the stack. */
function treeLines(gens: readonly GenerationRecord[], counts: ReadonlyMap<string, number>, path: ReadonlySet<string>, best: string | null, colour: boolean): string[] {
  const ids = new Set(gens.map((g) => g.id));
  const kids = new Map<string, GenerationRecord[]>();
  const roots: GenerationRecord[] = [];
  for (const g of gens) {
    if (g.parent === null || !ids.has(g.parent)) roots.push(g);
    else kids.set(g.parent, [...(kids.get(g.parent) ?? []), g]);
  }
  const lines: string[] = [];
  const stack: { g: GenerationRecord; prefix: string; last: boolean; root: boolean }[] = roots
    .map((g) => ({ g, prefix: "", last: true, root: true }))
    .reverse();
  while (stack.length > 0) {
    const { g, prefix, last, root } = stack.pop() as (typeof stack)[number];
    const branch = root ? "" : last ? "└─ " : "├─ ";
    const orphan = g.parent !== null && !ids.has(g.parent) ? `  (parent ${g.parent} unreadable)` : "";
    const text = label(g, counts.get(g.id) ?? 0, best) + orphan;
    lines.push(dim(prefix + branch, colour) + (path.has(g.id) ? highlight(text, colour) : text));
    const children = kids.get(g.id) ?? [];
    const childPrefix = root ? prefix : prefix + (last ? "   " : "│  ");
    // An only child continues its parent's column, so a long chain does not march rightwards.
    if (children.length === 1) {
      stack.push({ g: children[0] as GenerationRecord, prefix: childPrefix, last: true, root: true });
      continue;
    }
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push({ g: children[i] as GenerationRecord, prefix: childPrefix, last: i === children.length - 1, root: false });
    }
  }
  return lines;
}
