/**
 * The adversarial security suite: hostile agents and candidates against the real engine,
 * under every runtime the engine has. Each case checks that the harness contained the
 * attack (the right recorded reason), that the run went on, and that the host is
 * unaffected; the suite ends with one table of attack, runtime, outcome and time to contain.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { runtimesUnderTest } from "../support/test-engine.js";
import { cpuSpin, diskFill, floods, forkBomb, memoryBomb, metaTimerTampering, taskTimerTampering } from "./cases/resources.js";
import { network, privilege, secrets } from "./cases/probes.js";
import { containerArchives, craftedArchives } from "./cases/archives.js";
import { scoreTampering } from "./cases/tampering.js";
import { hostileMetaRun } from "./cases/loop.js";
import { dottedHostnameSweep, orphanSweep } from "./cases/orphans.js";
import { checkerBombs } from "./cases/checker-bombs.js";
import { hostileLlmRequests } from "./cases/llm-requests.js";
import { evaluateAbuse } from "./cases/evaluate-abuse.js";
import { arenaAbuse } from "./cases/arena-abuse.js";
import { hostileToolCallText } from "./cases/tool-call-text.js";
import { attemptsFlood } from "./cases/attempts-flood.js";
import { hostileAnswers } from "./cases/hostile-answers.js";
import { solveLlmAbuse } from "./cases/solve-llm-abuse.js";
import { hostileStageEnds } from "./cases/stage-end.js";
import { removeSentinel } from "./support/host-guard.js";
import { createSecurityEnv, runCase, type CaseContext, type CaseVerdict, type SecurityEnv } from "./support/security-env.js";

let env: SecurityEnv;
beforeAll(async () => {
  env = await createSecurityEnv();
});
afterAll(async () => {
  if (env === undefined) return;
  console.log(`\n${env.log.finish()}\n\n(results: ${env.log.file})`);
  await removeSentinel(env.sentinel);
});

type Case = readonly [string, (c: CaseContext) => Promise<CaseVerdict>, number?];

/**
 * Cases whose subject is what the harness does with what an agent sends out (ctx.evaluate and
 * model requests over the runner protocol, arena proposals and the oracle's work on them,
 * model replies, summaries, the flush at a stage's end), not what the container lets the agent reach: no runtime changes
 * that, so they run once, under runc (on 2 cores their runsc runs took about a third of the
 * suite). Every other case runs under every runtime the engine has.
 */
const HARNESS_SIDE = new Set(["16", "17", "18", "19", "20", "23"]);
const underRuntime = (runtime: string) => (c: Case): boolean => runtime === "runc" || !HARNESS_SIDE.has(c[0].split(" ")[0]!);

const containerCases: Case[] = [
  ["1 fork bomb", forkBomb],
  ["2 memory bomb", memoryBomb],
  ["3 CPU spin trapping SIGTERM", cpuSpin],
  // Early, beside the light cases: their times to contain are the engine's kill latency.
  ["12 timer tampering (task agent)", taskTimerTampering],
  ["12 timer tampering (meta agent)", metaTimerTampering],
  ["4 stdout/stderr floods", floods],
  ["5 disk fill and writes to /", diskFill],
  ["6 network", network],
  ["7 secrets, sockets, mounts", secrets],
  ["8 privilege", privilege],
  ["10 score tampering", scoreTampering],
  ["11+14 hostile meta agents in the loop (leak search, self-deletion, symlink)", hostileMetaRun, 300_000],
  ["16 ctx.evaluate abuse (malformed, unknown and held-out ids, huge lists, a loop past the count)", evaluateAbuse, 240_000],
  ["17 hostile LLM requests (tool definitions, tool messages, floods)", hostileLlmRequests],
  ["18 hostile test agents in the arena (proposal floods, huge and malformed proposals, oracle hang/heap/throw, stdout flood, held-out hunt)", arenaAbuse, 300_000],
  ["19 hostile tool-call text (huge and nested tags, unknown tools, paths outside the tree, a million tiny calls, unbalanced fences)", hostileToolCallText, 420_000],
  ["20 hostile summaries shown to siblings as attempts (200 KB, control characters, forged outcome and held-out score)", attemptsFlood, 240_000],
  ["21 hostile answers to a coding task (endless loop, output flood, file system, network, a process, process.exit, heap, forged protocol, type bomb)", hostileAnswers, 900_000],
  ["22 hostile solve-time model calls (malformed, a flood, past the budget, a hunt for the key)", solveLlmAbuse, 300_000],
  ["23 hostile ends of an evaluation stage and of a self-modification (exit patched away, a stderr flood, deaf to the shutdown, forged flush tokens)", hostileStageEnds, 180_000],
];

describe("security (host)", () => {
  it.concurrent("9 hostile workspace archives (crafted tars)", () => runCase(env, "9 hostile workspace archives (crafted tars)", "host", craftedArchives), 60_000);
  it.concurrent("13 orphan sweep on a host whose name has dots", () => runCase(env, "13 orphan sweep on a host whose name has dots", "host", dottedHostnameSweep), 120_000);
});

describe.each(runtimesUnderTest())("security (%s)", (runtime) => {
  for (const [name, body, timeout] of containerCases.filter(underRuntime(runtime))) {
    it.concurrent(name, () => runCase(env, name, runtime, body), timeout ?? 180_000);
  }
});

// Every `evolve run` sweeps the leftovers of dead sessions, so the orphan cases run on their
// own: a run starting elsewhere could sweep the orphans before the case counts them. (npm test
// runs this file after every other, for the same reason.)
describe.each(runtimesUnderTest())("security, orphans (%s)", (runtime) => {
  const name = "13 harness SIGKILLed mid-run, then the next start";
  it(name, () => runCase(env, name, runtime, orphanSweep), 300_000);
});

// Type bombs load the host, not a container: once, on their own, so they neither skew the
// other cases' times to contain nor share the CPU with them.
describe("security, host exhaustion", () => {
  const name = "15 host exhaustion through the checks (type bombs, a tree at every cap)";
  it(name, () => runCase(env, name, "host", checkerBombs), 420_000);
});

// 20k files made under gVisor's ptrace platform load both cores: on their own, so they do
// not skew the other cases' times to contain.
describe.each(runtimesUnderTest())("security, heavy (%s)", (runtime) => {
  const name = "9 hostile workspace archives (made in the container)";
  it(name, () => runCase(env, name, runtime, containerArchives), 240_000);
});
