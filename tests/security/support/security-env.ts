/**
 * The frame every security case runs in: its own engine session (so "nothing left
 * behind" is exact even with cases running concurrently), a marker for its processes,
 * the host checks afterwards, and one row in the results table whatever happens.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { expect } from "vitest";
import { newSessionId, type RuntimeImage, type SandboxEngine, type SandboxLabels } from "../../../sandbox/src/index.js";
import { type Runtime } from "../../../harness/src/kernel/index.js";
import { loadTask, type Task } from "../../../harness/src/evaluation/index.js";
import { testEngine } from "../../support/test-engine.js";
import { checkHost, createSentinel, type Sentinel } from "./host-guard.js";
import { ResultLog } from "./results.js";

export interface SecurityEnv {
  engine: SandboxEngine;
  image: RuntimeImage;
  session: string;
  sentinel: Sentinel;
  log: ResultLog;
  /** The suite's own task (tests/security/fixtures/sec-sum): sums, with attack instances. */
  secTask: Task;
  /** Set when the cases run on a remote engine (remote-engine.test.ts) rather than the local one. */
  remote?: RemoteEngine;
}

/** A remote engine the cases run on, and how a case reaches it. */
export interface RemoteEngine {
  /** docker CLI arguments naming it (e.g. -H unix://its-socket). */
  dockerArgs: string[];
  /** evolve CLI arguments naming it (--engine CONTEXT). */
  evolveArgs: string[];
  /** Its own address and this host's end of its link: containers must reach neither. */
  addresses: string[];
}

/** The suite's frame on the local engine, or on `remote` (with that engine's port, image and results folder). */
export async function createSecurityEnv(remote?: { engine: SandboxEngine; image: RuntimeImage; logDir: string; access: RemoteEngine }): Promise<SecurityEnv> {
  const secTask = await loadTask(join(new URL(".", import.meta.url).pathname, "..", "fixtures", "sec-sum"));
  if (remote !== undefined) {
    return { engine: remote.engine, image: remote.image, session: newSessionId(), sentinel: await createSentinel(), log: new ResultLog(remote.logDir), secTask, remote: remote.access };
  }
  const t = await testEngine();
  return { engine: t.engine, image: t.image, session: t.session, sentinel: await createSentinel(), log: new ResultLog(), secTask };
}

export interface CaseContext {
  env: SecurityEnv;
  runtime: Runtime;
  /** The case's own session: every container and volume it makes carries it. */
  session: string;
  labels: SandboxLabels;
  /** A unique string the case may put on its processes' command lines. */
  marker: string;
}

export interface CaseVerdict {
  outcome: string;
  containMs: number | null;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40);
}

/** Runs one attack, then checks the host; the row is logged even when an assertion fails. */
export async function runCase(env: SecurityEnv, attack: string, runtime: Runtime | "host", body: (c: CaseContext) => Promise<CaseVerdict>): Promise<void> {
  const session = `${env.session}-${slug(attack)}-${runtime}`;
  const marker = `evolvesecmark${randomBytes(6).toString("hex")}`;
  const context: CaseContext = { env, runtime: runtime === "host" ? "runc" : runtime, session, labels: { session, phase: "security" }, marker };
  let verdict: CaseVerdict | null = null;
  try {
    verdict = await body(context);
    // Processes can trail their container's removal by a moment.
    let host = await checkHost(env.engine, session, env.sentinel, marker);
    for (let i = 0; i < 20 && host.markerProcesses.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 250));
      host = await checkHost(env.engine, session, env.sentinel, marker);
    }
    expect(host.sentinelIntact, "files outside the archive changed").toBe(true);
    expect(host.leftovers, "containers or volumes left behind").toEqual({ containers: 0, volumes: 0 });
    expect(host.markerProcesses, "attack processes still alive on the host").toEqual([]);
    expect(host.spawnMs, "the host could not start a process promptly").toBeLessThan(5_000);
    env.log.add({ attack, runtime, outcome: verdict.outcome, containMs: verdict.containMs, passed: true });
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] ?? "" : String(error);
    env.log.add({ attack, runtime, outcome: `${verdict?.outcome ?? ""} — ${why}`.replace(/^ — /, ""), containMs: verdict?.containMs ?? null, passed: false });
    await env.engine.sweep({ session }).catch(() => undefined);
    throw error;
  }
}
