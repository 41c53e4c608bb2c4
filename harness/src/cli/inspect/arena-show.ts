/** `evolve show RUN arena` and `evolve show RUN t0003`: an arena run's rounds, and one test generation in words. */
import type { TesterRecord } from "../../arena/index.js";
import { readArena, TesterId } from "../../arena/index.js";
import { EvolveError } from "../../kernel/index.js";
import { arenaLines, arenaRounds, formatMs } from "../../report/index.js";
import { failureLabel } from "../../results/index.js";
import { oneLine } from "../../text/index.js";

/** True when `<gen>` names the arena or a test generation rather than a code generation. */
export function isArenaArg(arg: string): boolean {
  return arg === "arena" || TesterId.safeParse(arg).success;
}

export async function showArena(runDir: string, arg: string, json: boolean, out: (line: string) => void, err: (line: string) => void): Promise<void> {
  const arena = await readArena(runDir);
  for (const p of arena.problems) err(`warning: skipped unreadable arena record ${p.path}: ${p.reason}`);
  if (arg === "arena") {
    if (json) return out(JSON.stringify({ rounds: arena.rounds, testers: arena.testers, problems: arena.problems }, null, 2));
    if (arena.rounds.length === 0 && arena.testers.length === 0) throw new EvolveError("unknown_generation", "this run has no arena records (it was not started with --arena, or no round has begun)");
    for (const line of arenaLines(arenaRounds(arena.rounds, arena.testers))) out(line);
    const last = arena.rounds.at(-1);
    if (last !== undefined) {
      out("");
      out(`suite of round ${last.round} (${last.suite.length} tests):`);
      for (const t of last.suite) out(`  ${t.id}  from ${t.proposedBy}, round ${t.round}: ${oneLine(JSON.stringify(t.proposal), 120)}  (${t.verdict})`);
    }
    return;
  }
  const tester = arena.testers.find((t) => t.id === arg);
  if (tester === undefined) throw new EvolveError("unknown_generation", `no test generation ${arg} in this run`);
  if (json) return out(JSON.stringify(tester, null, 2));
  for (const line of describeTester(tester)) out(line);
}

function describeTester(t: TesterRecord): string[] {
  const lines = [`${t.id}  test generation of round ${t.round}  ${t.status.kind === "valid" ? "valid" : `INVALID at ${failureLabel(t.status)}`}  created ${t.createdAt}`];
  lines.push(`parent    ${t.parent ?? "none (the seed's tree)"}`);
  if (t.summary !== null) lines.push(`summary   ${oneLine(t.summary, 200)}`);
  if (t.status.kind === "invalid") lines.push(`  ${oneLine(t.status.message, 400)}`);
  lines.push(`propose   ${t.propose === null ? "not run" : t.propose.ok ? `returned ${t.propose.returned} proposals in ${formatMs(t.propose.durationMs)}` : `failed: ${oneLine(t.propose.reason, 300)}`}`);
  lines.push(`admitted  ${t.admitted} of ${t.proposals.length} judged`);
  for (const p of t.proposals.slice(0, 40)) lines.push(`  #${p.index + 1} ${p.outcome === "admitted" ? `✓ entered the suite as ${p.test}` : `✗ ${p.code}: ${oneLine(p.reason, 160)}`}`);
  if (t.proposals.length > 40) lines.push(`  … ${t.proposals.length - 40} more (--json shows all)`);
  lines.push(`changed   ${t.changedFiles.length === 0 ? "nothing" : t.changedFiles.map((f) => `${f.path} (${f.change})`).join(", ")}`);
  lines.push(`model     ${t.model ?? "offline"}  tokens ${t.tokens.prompt} prompt + ${t.tokens.completion} completion`);
  return lines;
}
