/**
 * The ssh:// engine transport end to end: a real sshd (tests/support/ssh-server.ts) in a
 * network namespace of its own, the client key in an ssh-agent, the host key checked against
 * known_hosts. A run goes through it to this machine's engine; an unknown host key and a
 * host key that is not the one known_hosts names are refused before any container is made.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRun } from "../../harness/src/evolution/index.js";
import { connectEngines, type EngineConnector } from "../../sandbox/src/index.js";
import { memorySink, readConsistentRun } from "../evolution/run-helpers.js";
import { evolve } from "../inspect/cli-harness.js";
import { startSshServer, type SshServer } from "../support/ssh-server.js";

let server: SshServer;
let out: string;

beforeAll(async () => {
  server = await startSshServer();
  out = await mkdtemp(join(tmpdir(), "evolve-ssh-"));
}, 60_000);
afterAll(async () => {
  await server?.dispose();
  if (out) await rm(out, { recursive: true, force: true });
});

/** The client's environment: its HOME (known_hosts) and its agent, nothing from this process. */
function clientEnv(home = server.home): NodeJS.ProcessEnv {
  return { HOME: home, SSH_AUTH_SOCK: server.agentSocket };
}

function overSsh(env: NodeJS.ProcessEnv): EngineConnector {
  return (settings) => connectEngines({ engines: [{ spec: server.url, label: "remote" }], requireAll: true }, { ...settings, env });
}

describe("an engine reached over ssh://", () => {
  it("runs a short evolution through the SSH transport, every phase on that engine", async () => {
    const sink = memorySink();
    const loginsBefore = await server.logins();
    // One ctx.evaluate draft a generation, not three: its phases go through the transport all the same.
    const summary = await startRun({ generations: 2, seed: 4, out, runId: "over-ssh", workers: 1, evaluations: 1 }, { sink, signal: new AbortController().signal, env: {}, engine: overSsh(clientEnv()) });
    expect(summary.end, sink.text()).toBe("finished");
    // Its hundreds of requests share a few logins (sandbox/src/connect/ssh-dial-agent.ts), not one each.
    const logins = (await server.logins()) - loginsBefore;
    expect(logins).toBeGreaterThan(0);
    expect(logins).toBeLessThanOrEqual(5);
    const { generations, problems } = await readConsistentRun(join(out, "over-ssh"));
    expect(problems).toEqual([]);
    expect(generations.map((g) => g.id)).toEqual(["g0000", "g0001", "g0002"]);
    for (const g of generations) {
      const engines = Object.values(g.engines ?? {}).flat();
      expect(engines.length, g.id).toBeGreaterThan(0);
      expect(new Set(engines), g.id).toEqual(new Set(["remote"]));
    }
    // The seed's meta agent tries its drafts with ctx.evaluate: their containers are named apart from the child's own.
    // Import checks are made in each candidate's first evaluation session: no validate containers.
    const phases = new Set(generations.flatMap((g) => Object.keys(g.engines ?? {})));
    expect([...phases].sort()).toEqual(expect.arrayContaining(["evaluate-stage1", "self-modify"]));
    expect([...phases].filter((p) => p.endsWith("validate"))).toEqual([]);
    expect([...phases].some((p) => p.startsWith("draft-evaluate-")), [...phases].join(", ")).toBe(true);
  }, 300_000);

  it("replays that run through the CLI with --engine ssh://, and it reproduces", async () => {
    // The CLI reads HOME and SSH_AUTH_SOCK from the process, as a user's shell would give them.
    const saved = { HOME: process.env["HOME"], SSH_AUTH_SOCK: process.env["SSH_AUTH_SOCK"] };
    Object.assign(process.env, clientEnv());
    const loginsBefore = await server.logins();
    try {
      const replayed = await evolve("replay", "over-ssh", "g0002", "--out", out, "--engine", server.url);
      expect(replayed.code, `${replayed.stdout}\n${replayed.stderr}`).toBe(0);
      expect(replayed.stdout).toMatch(/reproduced/);
      const logins = (await server.logins()) - loginsBefore;
      expect(logins).toBeGreaterThan(0);
      expect(logins).toBeLessThanOrEqual(5);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }, 300_000);

  it("refuses a host known_hosts has no key for, saying how to add it", async () => {
    const empty = await mkdtemp(join(tmpdir(), "evolve-ssh-home-"));
    try {
      await expect(connectEngines({ engines: [{ spec: server.url }], requireAll: true }, { env: clientEnv(empty) })).rejects.toMatchObject({
        code: "engine_refused",
        message: expect.stringContaining(`has no host key for ${server.address}`),
      });
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it("refuses a server whose host key is not the one known_hosts names", async () => {
    const other = await mkdtemp(join(tmpdir(), "evolve-ssh-home-"));
    try {
      await mkdir(join(other, ".ssh"));
      await writeFile(join(other, ".ssh", "known_hosts"), server.wrongKnownHosts);
      const refused = connectEngines({ engines: [{ spec: server.url }], requireAll: true }, { env: clientEnv(other) });
      await expect(refused).rejects.toMatchObject({ message: expect.stringMatching(/host key|verification/i) });
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
