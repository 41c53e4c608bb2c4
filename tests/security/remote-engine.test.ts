/**
 * The network, secrets and orphans cases of the security suite on a remote engine: one the
 * file starts in a network namespace of its own (tests/support/extra-engines.ts), reached
 * over TCP with TLS client certificates through a Docker context, as `--engine` reaches
 * one. Same cases, same checks; the network case also aims at the engine's own address and
 * API port and at this host's end of the link.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { connectEngines } from "../../sandbox/src/index.js";
import { type Runtime } from "../../harness/src/kernel/index.js";
import { startExtraEngines, type ExtraEngines } from "../support/extra-engines.js";
import { network, secrets } from "./cases/probes.js";
import { orphanSweep } from "./cases/orphans.js";
import { removeSentinel } from "./support/host-guard.js";
import { createSecurityEnv, runCase, type SecurityEnv } from "./support/security-env.js";

let fx: ExtraEngines;
let env: SecurityEnv;
let logDir: string;

/** The remote engine's runtimes, known before the cases are declared: runc, and runsc where gVisor is installed (EVOLVE_TEST_RUNTIMES narrows them). */
const wanted = (process.env["EVOLVE_TEST_RUNTIMES"] ?? "runc,runsc").split(",");
const RUNTIMES: Runtime[] = (["runc", "runsc"] as const).filter((r) => wanted.includes(r) && (r === "runc" || existsSync("/usr/bin/runsc")));

beforeAll(async () => {
  fx = await startExtraEngines([{}]);
  const remote = fx.engines[0]!;
  process.env["DOCKER_CONFIG"] = fx.dockerConfig;
  const engine = await connectEngines({ engines: [{ spec: remote.context }], requireAll: true });
  const image = await engine.ensureRuntimeImage();
  logDir = await mkdtemp(join(tmpdir(), "evolve-sec-remote-"));
  env = await createSecurityEnv({
    engine,
    image,
    logDir,
    access: { dockerArgs: ["-H", `unix://${remote.socket}`], evolveArgs: ["--engine", remote.context], addresses: [remote.address, remote.hostAddress] },
  });
}, 180_000);
afterAll(async () => {
  if (env !== undefined) {
    console.log(`\n${env.log.finish()}\n`);
    await env.engine.close();
    await removeSentinel(env.sentinel);
  }
  await fx?.dispose();
  if (logDir) await rm(logDir, { recursive: true, force: true });
});

describe.each(RUNTIMES)("security on a remote engine (%s)", (runtime) => {
  it("6 network, remote engine", () => runCase(env, "6 network, remote engine", runtime, network), 180_000);
  it("7 secrets, sockets, mounts, remote engine", () => runCase(env, "7 secrets, sockets, mounts, remote engine", runtime, secrets), 180_000);
  it("13 harness SIGKILLed mid-run, then the next start, remote engine", () => runCase(env, "13 harness SIGKILLed mid-run, then the next start, remote engine", runtime, orphanSweep), 300_000);
});
