/**
 * More Docker engines on this machine, for tests of a run across several engines. Each runs
 * in a network namespace the fixture makes (`ip netns add`, a veth pair with a /30 of its
 * own), started with `nsenter --net=` (`ip netns exec` remounts /sys, and dockerd then fails
 * with "Devices cgroup isn't mounted"), with its own data root, exec root, pidfile, unix
 * socket and cgroup parent, listening on ADDR:2376 with TLS client certificates only, and no
 * bridge, iptables or masquerading. Docker contexts in a temporary DOCKER_CONFIG name them.
 * The main engine (/var/run/docker.sock) and /etc/docker/daemon.json are never touched.
 * Everything is removed on every path: `dispose()`, and at the next start for a test process
 * that died (engine-teardown.ts).
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, openSync, closeSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeCa, signCertificate } from "./engine-certs.js";
import { crashEngine, NAME_PREFIX, STATE_DIR, sweepDeadFixtures, teardownFixture, type EngineRecord, type FixtureRecord } from "./engine-teardown.js";

export interface ExtraEngine {
  /** Its Docker context name (in `dockerConfig`). */
  context: string;
  /** Its address inside its namespace, and this host's end of the veth. */
  address: string;
  hostAddress: string;
  url: string;
  /** Its unix socket: for the test's own look at the engine (the harness goes over TCP). */
  socket: string;
  netns: string;
  /** The dockerd's pid while it runs. */
  pid(): number | null;
  /** Sends `signal` to its dockerd. */
  signal(signal: NodeJS.Signals): void;
  /** SIGKILLs the whole engine at once (dockerd, containerd, shims, containers) and clears what a reboot would. */
  crash(): Promise<void>;
  /** Starts its dockerd (again) and waits until it answers. */
  start(): Promise<void>;
}

export interface ExtraEngines {
  engines: ExtraEngine[];
  /** DOCKER_CONFIG holding a context per engine, and `wrongCertContext`. */
  dockerConfig: string;
  /** The first engine, with a client certificate from a CA the engines do not trust. */
  wrongCertContext: string;
  /** Runs the docker CLI against `engine` (through its socket). */
  docker(engine: ExtraEngine, args: string[]): string;
  dispose(): Promise<void>;
}

const RUNSC = "/usr/bin/runsc";

/** A /30 no interface of this host uses yet: 10.216.X.0. */
function freeSubnet(taken: Set<string>): string {
  const used = execFileSync("ip", ["-4", "-o", "addr"], { encoding: "utf8" });
  for (;;) {
    const x = 1 + Math.floor(Math.random() * 254);
    const prefix = `10.216.${x}.`;
    if (!used.includes(prefix) && !taken.has(prefix)) {
      taken.add(prefix);
      return prefix;
    }
  }
}

function ip(args: string[]): void {
  execFileSync("ip", args, { stdio: ["ignore", "ignore", "pipe"] });
}

/** A context as `docker context create NAME --docker host=URL,ca=,cert=,key=` writes it. */
async function writeContext(config: string, name: string, url: string, tls: { ca: string; cert: string; key: string }): Promise<void> {
  const id = createHash("sha256").update(name).digest("hex");
  await mkdir(join(config, "contexts", "meta", id), { recursive: true });
  await writeFile(join(config, "contexts", "meta", id, "meta.json"), JSON.stringify({ Name: name, Metadata: {}, Endpoints: { docker: { Host: url, SkipTLSVerify: false } } }));
  const tlsDir = join(config, "contexts", "tls", id, "docker");
  await mkdir(tlsDir, { recursive: true });
  await copyFile(tls.ca, join(tlsDir, "ca.pem"));
  await copyFile(tls.cert, join(tlsDir, "cert.pem"));
  await copyFile(tls.key, join(tlsDir, "key.pem"));
}

/** How one engine is set up: gVisor registered (default, when installed) or not. */
export interface ExtraEngineOptions {
  runsc?: boolean;
}

/** Starts one engine per entry of `options`; the caller must `dispose()` them (afterAll). */
export async function startExtraEngines(options: ExtraEngineOptions[]): Promise<ExtraEngines> {
  const count = options.length;
  await sweepDeadFixtures();
  const id = randomBytes(3).toString("hex");
  const dir = await mkdtemp(join(tmpdir(), `${NAME_PREFIX}-${id}-`));
  const record: FixtureRecord = { owner: process.pid, dir, engines: [] };
  const taken = new Set<string>();
  const letters = "abcdefgh";
  for (let i = 0; i < count; i++) {
    const letter = letters[i]!;
    record.engines.push({ dir: join(dir, letter), netns: `${NAME_PREFIX}-${id}-${letter}`, vethHost: `${NAME_PREFIX}${id}${letter}h`, cgroupParent: `/${NAME_PREFIX}-${id}-${letter}` });
  }
  // Recorded before anything is made, so a test process that dies leaves nothing unrecorded.
  await mkdir(STATE_DIR, { recursive: true });
  const stateFile = join(STATE_DIR, `${id}.json`);
  await writeFile(stateFile, JSON.stringify(record));
  const pids: (number | null)[] = record.engines.map(() => null);
  const dispose = async (): Promise<void> => {
    await teardownFixture(record, pids);
    await rm(stateFile, { force: true });
  };
  try {
    const ca = join(dir, "ca");
    const wrongCa = join(dir, "wrong-ca");
    await makeCa(ca, `evolve-test-ca-${id}`);
    await makeCa(wrongCa, `evolve-untrusted-ca-${id}`);
    const client = await signCertificate(ca, "client", "client");
    const wrongClient = await signCertificate(wrongCa, "client", "client");
    const dockerConfig = join(dir, "docker-config");
    const engines = await Promise.all(
      record.engines.map(async (engine, i) => {
        const prefix = freeSubnet(taken);
        const made = await makeEngine(engine, { address: `${prefix}2`, hostAddress: `${prefix}1`, ca, pids, index: i, runsc: options[i]?.runsc !== false });
        await writeContext(dockerConfig, made.context, made.url, { ca: join(ca, "ca.pem"), ...client });
        return made;
      }),
    );
    const wrongCertContext = `${engines[0]!.context}-wrong-cert`;
    await writeContext(dockerConfig, wrongCertContext, engines[0]!.url, { ca: join(ca, "ca.pem"), ...wrongClient });
    const docker = (engine: ExtraEngine, args: string[]): string =>
      execFileSync("docker", ["-H", `unix://${engine.socket}`, ...args], { encoding: "utf8", env: { ...process.env, DOCKER_CONFIG: dockerConfig }, timeout: 60_000 });
    return { engines, dockerConfig, wrongCertContext, docker, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

async function makeEngine(engine: EngineRecord, o: { address: string; hostAddress: string; ca: string; pids: (number | null)[]; index: number; runsc: boolean }): Promise<ExtraEngine> {
  await mkdir(engine.dir, { recursive: true });
  ip(["netns", "add", engine.netns]);
  const vethNs = engine.vethHost.replace(/h$/, "n");
  ip(["link", "add", engine.vethHost, "type", "veth", "peer", "name", vethNs]);
  ip(["link", "set", vethNs, "netns", engine.netns]);
  ip(["addr", "add", `${o.hostAddress}/30`, "dev", engine.vethHost]);
  ip(["link", "set", engine.vethHost, "up"]);
  ip(["-n", engine.netns, "addr", "add", `${o.address}/30`, "dev", vethNs]);
  ip(["-n", engine.netns, "link", "set", vethNs, "up"]);
  ip(["-n", engine.netns, "link", "set", "lo", "up"]);
  const server = await signCertificate(o.ca, `server-${o.address}`, { serverIp: o.address });
  // Our own daemon.json: the main engine's (/etc/docker/daemon.json) is not read.
  const config = join(engine.dir, "daemon.json");
  const runtimes = o.runsc && existsSync(RUNSC) ? { runsc: { path: RUNSC, runtimeArgs: ["--network=none", "--platform=ptrace"] } } : {};
  await writeFile(config, JSON.stringify({ runtimes }));
  const socket = join(engine.dir, "docker.sock");
  const pidfile = join(engine.dir, "docker.pid");
  const url = `tcp://${o.address}:2376`;
  const args = [
    `--net=/var/run/netns/${engine.netns}`,
    "dockerd",
    "--config-file", config,
    "--data-root", join(engine.dir, "data"),
    "--exec-root", join(engine.dir, "exec"),
    "--pidfile", pidfile,
    "-H", `unix://${socket}`,
    "-H", url,
    "--tlsverify",
    "--tlscacert", join(o.ca, "ca.pem"),
    "--tlscert", server.cert,
    "--tlskey", server.key,
    "--bridge=none",
    "--iptables=false",
    "--ip-masq=false",
    `--cgroup-parent=${engine.cgroupParent}`,
    "--log-level", "warn",
  ];
  const start = async (): Promise<void> => {
    const log = openSync(join(engine.dir, "dockerd.log"), "a");
    const child = spawn("nsenter", args, { detached: true, stdio: ["ignore", log, log] });
    closeSync(log);
    child.unref();
    o.pids[o.index] = child.pid ?? null;
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        execFileSync("docker", ["-H", `unix://${socket}`, "version", "--format", "{{.Server.Version}}"], { stdio: "ignore", timeout: 10_000 });
        return;
      } catch {
        if (child.exitCode !== null || Date.now() > deadline) {
          throw new Error(`the test engine ${engine.netns} did not start: ${(await readFile(join(engine.dir, "dockerd.log"), "utf8")).slice(-2000)}`);
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  };
  await start();
  return {
    context: engine.netns,
    address: o.address,
    hostAddress: o.hostAddress,
    url,
    socket,
    netns: engine.netns,
    pid: () => o.pids[o.index] ?? null,
    signal: (signal) => {
      const pid = o.pids[o.index];
      if (pid) process.kill(pid, signal);
    },
    crash: () => crashEngine(engine, join(engine.dir, "exec")),
    start,
  };
}

