/**
 * A throwaway SSH server for the ssh:// engine test: Debian's sshd, run with a config, host
 * key and authorized key of its own, in a network namespace this file makes (a veth pair
 * with a /30 of its own), so the test's traffic goes only to an address it made. A login
 * there runs `docker system dial-stdio` against this machine's engine, which is what
 * dockerode's SSH transport does on a remote host. The client key sits in an ssh-agent of
 * its own (evolve authenticates through SSH_AUTH_SOCK only); `home` holds a known_hosts with
 * the server's key. Everything is removed by `dispose()`, and at the next start for a test
 * process that died (the namespaces carry the prefix and the pids are in the state folder).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SSHD = "/usr/sbin/sshd";
const PREFIX = "evssh";
const STATE_DIR = "/run/evolve-test-ssh";

export interface SshServer {
  /** `ssh://root@ADDRESS:22`: the engine spec to connect to. */
  url: string;
  address: string;
  /** HOME for the client: .ssh/known_hosts trusts this server's host key. */
  home: string;
  /** The ssh-agent holding the client key. */
  agentSocket: string;
  /** A known_hosts line for this address with a key that is not the server's. */
  wrongKnownHosts: string;
  /** Logins sshd has accepted so far (from its log): proof that traffic went through it. */
  logins(): Promise<number>;
  dispose(): Promise<void>;
}

function run(command: string, args: string[], env?: NodeJS.ProcessEnv): string {
  return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 30_000, ...(env === undefined ? {} : { env }) });
}

/** Kills what a dead test process left: its sshd and agent, its namespace and veth. */
async function sweep(): Promise<void> {
  await mkdir(STATE_DIR, { recursive: true });
  for (const name of await readdir(STATE_DIR)) {
    const state = JSON.parse(await readFile(join(STATE_DIR, name), "utf8")) as { owner: number; netns: string; veth: string; pids: number[]; dir: string };
    if (existsSync(`/proc/${state.owner}`)) continue;
    await teardown(state);
    await rm(join(STATE_DIR, name), { force: true });
  }
}

async function teardown(state: { netns: string; veth: string; pids: number[]; dir: string }): Promise<void> {
  for (const pid of state.pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  for (const args of [["link", "del", state.veth], ["netns", "del", state.netns]]) {
    try {
      run("ip", args);
    } catch {
      // not made, or already removed
    }
  }
  await rm(state.dir, { recursive: true, force: true });
}

async function waitFor(check: () => boolean, what: string, log: () => Promise<string>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not start: ${(await log()).slice(-1500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startSshServer(): Promise<SshServer> {
  if (!existsSync(SSHD)) throw new Error(`${SSHD} is missing: \`npm test\` installs Debian's openssh-server (scripts/setup.sh --for-tests)`);
  await sweep();
  const id = randomBytes(3).toString("hex");
  const dir = await mkdtemp(join(tmpdir(), `${PREFIX}-${id}-`));
  const state = { owner: process.pid, netns: `${PREFIX}-${id}`, veth: `${PREFIX}${id}h`, pids: [] as number[], dir };
  const stateFile = join(STATE_DIR, `${id}.json`);
  const record = (): Promise<void> => writeFile(stateFile, JSON.stringify(state));
  await record();
  const children: ChildProcess[] = [];
  const dispose = async (): Promise<void> => {
    await teardown(state);
    await rm(stateFile, { force: true });
  };
  try {
    const x = 1 + Math.floor(Math.random() * 254);
    const [hostAddress, address] = [`10.217.${x}.1`, `10.217.${x}.2`];
    const vethNs = `${PREFIX}${id}n`;
    run("ip", ["netns", "add", state.netns]);
    run("ip", ["link", "add", state.veth, "type", "veth", "peer", "name", vethNs]);
    run("ip", ["link", "set", vethNs, "netns", state.netns]);
    run("ip", ["addr", "add", `${hostAddress}/30`, "dev", state.veth]);
    run("ip", ["link", "set", state.veth, "up"]);
    run("ip", ["-n", state.netns, "addr", "add", `${address}/30`, "dev", vethNs]);
    run("ip", ["-n", state.netns, "link", "set", vethNs, "up"]);
    run("ip", ["-n", state.netns, "link", "set", "lo", "up"]);

    for (const key of ["host", "client", "stranger"]) run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", `evolve-test-${key}`, "-f", join(dir, key)]);
    await writeFile(join(dir, "authorized_keys"), await readFile(join(dir, "client.pub"), "utf8"));
    const config = join(dir, "sshd_config");
    await writeFile(
      config,
      [
        `ListenAddress ${address}:22`,
        `HostKey ${join(dir, "host")}`,
        `PidFile ${join(dir, "sshd.pid")}`,
        `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
        "PermitRootLogin prohibit-password",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "UsePAM no",
        // The key files live in a temporary folder, not in a home with ssh's modes.
        "StrictModes no",
        "LogLevel VERBOSE",
        "",
      ].join("\n"),
    );
    // sshd's privilege separation needs this folder to exist; Debian makes it only for its service.
    await mkdir("/run/sshd", { recursive: true, mode: 0o755 });
    const sshdLog = join(dir, "sshd.log");
    const sshd = spawn("nsenter", [`--net=/var/run/netns/${state.netns}`, SSHD, "-D", "-f", config, "-E", sshdLog], { detached: true, stdio: "ignore" });
    children.push(sshd);
    state.pids.push(sshd.pid!);
    await record();
    const listening = (): boolean => {
      try {
        return run("nsenter", [`--net=/var/run/netns/${state.netns}`, "ss", "-Htln"]).includes(`${address}:22`);
      } catch {
        return false;
      }
    };
    await waitFor(listening, "sshd", () => readFile(sshdLog, "utf8").catch(() => "(no log)"));

    const agentSocket = join(dir, "agent.sock");
    const agent = spawn("ssh-agent", ["-D", "-a", agentSocket], { detached: true, stdio: "ignore" });
    children.push(agent);
    state.pids.push(agent.pid!);
    await record();
    await waitFor(() => existsSync(agentSocket), "ssh-agent", async () => "");
    run("ssh-add", ["-q", join(dir, "client")], { ...process.env, SSH_AUTH_SOCK: agentSocket });

    const home = join(dir, "home");
    await mkdir(join(home, ".ssh"), { recursive: true });
    const hostKey = (await readFile(join(dir, "host.pub"), "utf8")).split(" ").slice(0, 2).join(" ");
    const strangerKey = (await readFile(join(dir, "stranger.pub"), "utf8")).split(" ").slice(0, 2).join(" ");
    // Port 22 is written as a bare host name, as ssh itself writes it.
    await writeFile(join(home, ".ssh", "known_hosts"), `${address} ${hostKey}\n`);
    for (const child of children) child.unref();
    const logins = async (): Promise<number> => ((await readFile(sshdLog, "utf8").catch(() => "")).match(/Accepted publickey/g) ?? []).length;
    return { url: `ssh://root@${address}:22`, address, home, agentSocket, wrongKnownHosts: `${address} ${strangerKey}\n`, logins, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
