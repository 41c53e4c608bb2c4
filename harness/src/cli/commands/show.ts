/** `evolve show <run> <gen>`: one generation record in words. */
import type { GenerationRecord, GenerationSummary } from "../../archive/index.js";
import { childrenOf, lineageOf, readGeneration } from "../../archive/index.js";
import { describeApproval, describeRace, describeStatus, formatDelta, formatMs, formatScore } from "../../report/index.js";
import type { CliCommand } from "../command.js";
import { loadRunSummary, printJson, stringOption } from "../inspect/load-run.js";
import { JSON_HELP, OUT_HELP, resolveGenerationArg } from "../inspect/run-arg.js";
import { oneLine, plural } from "../../text/index.js";
import { failureLabel, STAGE_LABELS } from "../../results/index.js";
import { isArenaArg, showArena } from "../inspect/arena-show.js";

export const show: CliCommand = {
  name: "show",
  summary: "one generation in words: lineage, scores per stage and split, failures, cost, timings, validation",
  help: `usage: evolve show <run> <gen> [--out DIR] [--json]
  <gen>       g0007, 7, best or latest; in an arena run also "arena" (the rounds and the suite) or a test generation (t0003)
${OUT_HELP}
${JSON_HELP}`,
  options: { out: { type: "string" }, json: { type: "boolean" } },
  positionals: { min: 2, max: 2, names: "<run> <gen>" },
  async run({ values, positionals, out, err }) {
    // Every record's summary for the lineage, the children and "best"; the one shown in full.
    const run = await loadRunSummary(positionals[0] ?? "", stringOption(values["out"]), err);
    if (isArenaArg(positionals[1] ?? "")) {
      await showArena(run.dir, positionals[1] ?? "", values["json"] === true, out, err);
      return 0;
    }
    const id = resolveGenerationArg(positionals[1] ?? "", run.generations);
    const g = await readGeneration(run.dir, id);
    let lineage: string[];
    try {
      lineage = lineageOf(run.generations, id);
    } catch (error) {
      err(`warning: lineage of ${id}: ${error instanceof Error ? error.message : String(error)}`);
      lineage = [id];
    }
    const children = childrenOf(run.generations, id);
    if (values["json"] === true) {
      printJson(out, { record: g, lineage, children, warnings: run.warnings });
      return 0;
    }
    const parent = g.parent === null ? null : (run.generations.find((p) => p.id === g.parent) ?? null);
    const of = g.status.kind === "duplicate" ? g.status.of : null;
    const original = of === null ? null : (run.generations.find((p) => p.id === of) ?? null);
    for (const line of describe(g, parent, lineage, children, original)) out(line);
    return 0;
  },
};

function describe(g: GenerationRecord, parent: GenerationSummary | null, lineage: string[], children: string[], original: GenerationSummary | null): string[] {
  const lines: string[] = [];
  lines.push(`${g.id}  ${describeStatus(g)}  depth ${g.depth}  created ${g.createdAt}`);
  lines.push(`parent    ${g.parent ?? "none (root)"}`);
  lines.push(`lineage   ${lineage.join(" → ")}`);
  lines.push(`children  ${children.length === 0 ? "none" : children.join(" ")}`);
  if (g.summary !== null) lines.push(`summary   ${oneLine(g.summary, 200)}`);
  lines.push("");
  lines.push("scores    visible  held-out  stage 1   (visible: every visible instance, stages 1 and 2)");
  lines.push(`          ${formatScore(g.scores.visible).padEnd(7)}  ${formatScore(g.scores.heldout).padEnd(8)}  ${formatScore(g.scores.stage1)}`);
  if (parent !== null) {
    lines.push(`vs parent ${formatDelta(g.scores.visible, parent.scores.visible).padEnd(7)}  ${formatDelta(g.scores.heldout, parent.scores.heldout).padEnd(8)}  ${formatDelta(g.scores.stage1, parent.scores.stage1)}`);
  }
  if (g.status.kind === "invalid") {
    lines.push("");
    lines.push(`failed at ${failureLabel(g.status)}`);
    const where = g.status.file === null ? "" : `${g.status.file}${g.status.line === null ? "" : `:${g.status.line}`}: `;
    lines.push(`  ${where}${oneLine(g.status.message, 400)}`);
  } else if (g.status.kind === "duplicate") {
    lines.push("");
    lines.push(`the same tree as ${g.status.of}, byte for byte: not checked or evaluated again, never a parent`);
    if (original !== null) lines.push(`  ${original.id}: ${describeStatus(original)}, visible ${formatScore(original.scores.visible)}, held-out ${formatScore(original.scores.heldout)}`);
  } else {
    lines.push("validation passed (policy, compile, signature, import)");
  }
  const approval = describeApproval(g);
  if (approval !== null && g.approval !== undefined) {
    lines.push(`approval  ${oneLine(approval, 400)}`);
    lines.push(`  asked because ${g.approval.reasons.join("; ")}`);
  }
  if (g.evaluation !== null) lines.push("", ...evaluationLines(g, g.evaluation));
  lines.push("");
  lines.push(`changed   ${g.changedFiles.length === 0 ? "nothing" : g.changedFiles.map((f) => `${f.path} (${f.change}, +${f.additions} −${f.deletions})`).join(", ")}`);
  lines.push(`model     ${g.model ?? "offline"}  tokens ${g.tokens.prompt} prompt + ${g.tokens.completion} completion  cost ${g.costUsd === null ? "unknown" : `$${g.costUsd.toFixed(4)}`}`);
  if (g.solve !== undefined) {
    const s = g.solve;
    lines.push(`solving   task agent: ${s.calls} calls, tokens ${s.tokens.prompt} prompt + ${s.tokens.completion} completion  cost ${s.costUsd === null ? "unknown" : `$${s.costUsd.toFixed(4)}`} (apart from the meta agent's above)`);
  }
  const timings = Object.entries(g.timings).filter(([, v]) => v !== undefined).map(([k, v]) => `${k} ${formatMs(v)}`);
  lines.push(`timings   ${timings.length === 0 ? "—" : timings.join(", ")}`);
  lines.push(`snapshot  ${g.snapshotHash ?? "none"}  seed ${g.seed}`);
  if (g.evaluateCalls !== undefined) {
    const e = g.evaluateCalls;
    lines.push(`self-test ${plural(e.calls, "ctx.evaluate call")} (${e.counted} counted), ${plural(e.containers, "container")}, ${formatMs(e.durationMs)}`);
  }
  if (g.engines !== undefined) lines.push(`engines   ${Object.entries(g.engines).map(([phase, engines]) => `${phase} ${engines.join(", ")}`).join("; ")}`);
  return lines;
}

/** The evaluation's lines: its time, the race, the held-out rule, a draft it was read off, each stage and its failed instances. */
function evaluationLines(g: GenerationRecord, evaluation: NonNullable<GenerationRecord["evaluation"]>): string[] {
  const lines: string[] = [];
  lines.push(`evaluation ${formatMs(evaluation.durationMs)} (candidate compute ${formatMs(evaluation.computeMs)}), stage 1 ${evaluation.passedStage1 ? "passed" : "not passed"}`);
  const race = describeRace(g);
  if (race !== null) lines.push(`  ${race}: no whole visible score, so it is not a parent or the best`);
  if (evaluation.heldoutSkipped !== undefined) lines.push(`  held-out not scored: ${evaluation.heldoutSkipped}`);
  if (evaluation.visibleFromDraft !== undefined) lines.push(`  visible split read off ctx.evaluate draft ${evaluation.visibleFromDraft} (the same tree, seed and limits): no container of its own`);
  for (const stage of evaluation.stages) {
    const failed = stage.instances.filter((i) => i.error !== null || i.score === 0);
    lines.push(`  ${STAGE_LABELS[stage.stage].padEnd(8)} score ${formatScore(stage.score)}  ${plural(stage.instances.length, "instance")}, ${failed.length} failed  ${formatMs(stage.durationMs)}`);
    for (const i of failed.slice(0, 10)) lines.push(`    ✗ ${i.id} (${i.split}): ${oneLine(i.error ?? i.feedback, 160)}`);
    if (failed.length > 10) lines.push(`    … ${failed.length - 10} more`);
  }
  return lines;
}
