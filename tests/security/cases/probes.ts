/**
 * Probing task agents: they answer honestly and report what they could reach. Network
 * (DNS, the host's gateway and addresses, the metadata service, public addresses, with a
 * host listener that must see nothing), secrets (environment, files, /proc, sockets,
 * mounts) and privilege (uid, capabilities, setuid, unshare, mount).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { expect } from "vitest";
import { attackSolve, evaluateAttacks, writeCandidate } from "../support/candidate.js";
import type { CaseContext, CaseVerdict } from "../support/security-env.js";
import { WALK_SOURCE } from "./fs-walk.js";

function gatewayAddress(): string {
  return execFileSync("docker", ["network", "inspect", "bridge", "--format", "{{(index .IPAM.Config 0).Gateway}}"], { encoding: "utf8" }).trim();
}

function hostAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && a.family === "IPv4" && !a.internal)
    .map((a) => a!.address);
}

export async function network(c: CaseContext): Promise<CaseVerdict> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
  const port = (server.address() as AddressInfo).port;
  const hosts = [...new Set([gatewayAddress(), ...hostAddresses(), ...(c.env.remote?.addresses ?? [])])];
  const targets: [string, number][] = [
    ...hosts.map((h): [string, number] => [h, port]),
    ...hosts.map((h): [string, number] => [h, 2375]),
    // A remote engine's own API port (TLS): a container must not reach the engine it runs on.
    ...(c.env.remote?.addresses ?? []).map((h): [string, number] => [h, 2376]),
    ["169.254.169.254", 80],
    ["1.1.1.1", 443],
    ["8.8.8.8", 53],
    ["registry.npmjs.org", 443],
  ];
  const build = await writeCandidate(
    attackSolve(`{ async network() {
      const out = { interfaces: Object.keys(os.networkInterfaces()), tcp: {} };
      out.dns = await new Promise((r) => dns.lookup("example.com", (e, a) => r(e ? e.code : "resolved " + a)));
      out.resolver = await new Promise((r) => { try { const x = new dns.Resolver({ timeout: 2000, tries: 1 }); x.setServers(["8.8.8.8"]); x.resolve4("example.com", (e) => r(e ? e.code : "resolved")); } catch (e) { r(e.code || String(e)); } });
      const tcp = (host, port) => new Promise((r) => { const s = net.connect({ host, port, timeout: 3000 });
        s.on("connect", () => { s.destroy(); r("connected"); }); s.on("timeout", () => { s.destroy(); r("timeout"); }); s.on("error", (e) => r(e.code)); });
      await Promise.all(${JSON.stringify(targets)}.map(async ([h, p]) => { out.tcp[h + ":" + p] = await tcp(h, p); }));
      const dgram = await import("node:dgram");
      out.udp = await new Promise((r) => { const d = dgram.createSocket("udp4"); d.on("error", (e) => { r(e.code); d.close(); });
        d.send(Buffer.from("x"), 53, "8.8.8.8", (e) => { r(e ? e.code : "sent"); d.close(); }); });
      return out; } }`),
  );
  try {
    const run = await evaluateAttacks(c, build, ["network"], { instanceTimeoutMs: 30_000 });
    const r = run.byId("network");
    const report = r.artifact as { interfaces: string[]; dns: string; resolver: string; tcp: Record<string, string>; udp: string };
    expect(report, `no report: ${r.error ?? r.feedback}`).toBeDefined();
    expect(report.interfaces).toEqual(["lo"]);
    expect(report.dns).not.toMatch(/^resolved/);
    expect(report.resolver).not.toMatch(/^resolved/);
    expect(Object.keys(report.tcp)).toHaveLength(targets.length);
    for (const [target, result] of Object.entries(report.tcp)) expect(result, target).not.toBe("connected");
    expect(report.udp).not.toBe("sent");
    expect(connections).toBe(0);
    const codes = [...new Set(Object.values(report.tcp))].join("/");
    return { outcome: `only lo; DNS ${report.dns}; ${targets.length} TCP targets ${codes}; UDP ${report.udp}; host listener saw 0`, containMs: r.durationMs };
  } finally {
    server.close();
    await rm(build, { recursive: true, force: true });
  }
}

interface SecretsReport {
  env: Record<string, string>;
  environs: Record<string, string>;
  cmdlines: Record<string, string>;
  mountinfo: string;
  dockerSockets: Record<string, string>;
  walk: { files: number; bytes: number; hits: { path: string; needle: string }[]; sockets: string[]; errors: number };
}

/**
 * Mount points a hardened container may have; anything else would be a host path. Docker
 * itself adds the per-container /etc/hosts, hostname and resolv.conf, and (Init: true) its
 * read-only init binary at /sbin/docker-init.
 */
const ALLOWED_MOUNTS = /^\/(proc|dev|sys|tmp|work)(\/|$)|^\/$|^\/etc\/(hosts|hostname|resolv\.conf)$|^\/sbin\/docker-init$/;

export async function secrets(c: CaseContext): Promise<CaseVerdict> {
  const key = `sk-evolvesec-${randomBytes(12).toString("hex")}`;
  const canaryName = `EVOLVESECCANARY_${randomBytes(4).toString("hex")}`;
  const canaryValue = randomBytes(16).toString("hex");
  const saved = process.env["OPENAI_API_KEY"];
  process.env["OPENAI_API_KEY"] = key;
  process.env[canaryName] = canaryValue;
  const build = await writeCandidate(
    attackSolve(`{ async secrets() {
      const read = (p) => { try { return fs.readFileSync(p, "latin1").replace(/\\0/g, " "); } catch (e) { return "!" + e.code; } };
      const out = { env: { ...process.env }, environs: {}, cmdlines: {}, mountinfo: read("/proc/self/mountinfo"), dockerSockets: {} };
      for (const pid of fs.readdirSync("/proc").filter((n) => /^\\d+$/.test(n))) {
        out.environs[pid] = read("/proc/" + pid + "/environ"); out.cmdlines[pid] = read("/proc/" + pid + "/cmdline");
      }
      const sock = "." + "sock";
      for (const p of ["/var/run/docker" + sock, "/run/docker" + sock, "/run/containerd/containerd" + sock, "/var/run/docker"]) {
        try { fs.statSync(p); out.dockerSockets[p] = "exists"; } catch (e) { out.dockerSockets[p] = e.code; }
      }
      out.walk = walk(["sk-" + "evolvesec", "EVOLVE" + "SECCANARY", "OPENAI" + "_API_KEY", "DOCKER" + "_HOST", "docker" + ".sock"]);
      return out; } }`, WALK_SOURCE),
  );
  try {
    const run = await evaluateAttacks(c, build, ["secrets"], { instanceTimeoutMs: 90_000 });
    const r = run.byId("secrets");
    const report = r.artifact as SecretsReport | undefined;
    expect(report, `no report: ${r.error ?? r.feedback}`).toBeDefined();
    const text = JSON.stringify(report);
    expect(text).not.toContain(key);
    expect(text).not.toContain(canaryName);
    expect(text).not.toContain(canaryValue);
    expect(Object.keys(report!.env).sort()).toEqual(expect.arrayContaining(["HOME", "NODE_ENV"]));
    for (const name of Object.keys(report!.env)) expect(["HOME", "NODE_ENV", "PATH", "HOSTNAME"], `env ${name}`).toContain(name);
    expect(Object.values(report!.dockerSockets).every((v) => v === "ENOENT")).toBe(true);
    expect(report!.walk.hits, JSON.stringify(report!.walk.hits)).toEqual([]);
    expect(report!.walk.sockets).toEqual([]);
    expect(report!.walk.files).toBeGreaterThan(100);
    const mounts = report!.mountinfo.trim().split("\n").map((line) => line.split(" ")[4] ?? "");
    const foreign = mounts.filter((m) => !ALLOWED_MOUNTS.test(m));
    expect(foreign, "host paths mounted").toEqual([]);
    return {
      outcome: `env ${Object.keys(report!.env).sort().join(",")}; ${report!.walk.files} files (${(report!.walk.bytes / 2 ** 20).toFixed(0)} MiB) + /proc searched: no key, no host var, no socket; ${mounts.length} mounts, none a host path`,
      containMs: r.durationMs,
    };
  } finally {
    if (saved === undefined) delete process.env["OPENAI_API_KEY"];
    else process.env["OPENAI_API_KEY"] = saved;
    delete process.env[canaryName];
    await rm(build, { recursive: true, force: true });
  }
}

interface PrivilegeReport {
  uid: number;
  gid: number;
  groups: number[];
  status: Record<string, string>;
  attempts: Record<string, string>;
  execs: Record<string, { status: number | null; error: string | null; stderr: string }>;
}

export async function privilege(c: CaseContext): Promise<CaseVerdict> {
  const build = await writeCandidate(
    attackSolve(
      `{ async privilege() {
      const text = fs.readFileSync("/proc/self/status", "utf8"); const status = {};
      for (const k of ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp"]) status[k] = (text.match(new RegExp("^" + k + ":\\\\s*(\\\\S+)", "m")) || [])[1] ?? "absent";
      const attempt = (f) => { try { f(); return "succeeded"; } catch (e) { return e.code || e.message; } };
      const attempts = {
        setuid: attempt(() => process.setuid(0)), setgid: attempt(() => process.setgid(0)),
        seteuid: attempt(() => process.seteuid(0)), setgroups: attempt(() => process.setgroups([0])),
        chownRoot: attempt(() => fs.chownSync("/work", 0, 0)),
      };
      for (const b of ["unshare", "mount", "true"]) fs.chmodSync("/work/build/bin/" + b, 0o755);
      fs.mkdirSync("/work/mnt", { recursive: true });
      const run = (args) => { const r = child.spawnSync("/work/build/bin/" + args[0], args.slice(1), { env: { LD_LIBRARY_PATH: "/work/build/lib" }, encoding: "utf8", timeout: 15000 });
        return { status: r.status, error: r.error ? r.error.code : null, stderr: String(r.stderr || "").slice(0, 160) }; };
      const T = "/work/build/bin/true";
      const execs = {
        "true (control)": run(["true"]),
        "unshare --user --map-root-user": run(["unshare", "--user", "--map-root-user", T]),
        "unshare --mount": run(["unshare", "--mount", T]),
        "unshare --net": run(["unshare", "--net", T]),
        "unshare --pid --fork": run(["unshare", "--pid", "--fork", T]),
        "mount -t tmpfs": run(["mount", "-t", "tmpfs", "none", "/work/mnt"]),
        "mount in a user namespace": run(["unshare", "--user", "--map-root-user", "--mount", "/work/build/bin/mount", "-t", "tmpfs", "none", "/work/mnt"]),
      };
      fs.copyFileSync(T, "/work/suid-true"); fs.chmodSync("/work/suid-true", 0o4755);
      execs["setuid-bit binary"] = run(["../../suid-true"]);
      return { uid: process.getuid(), gid: process.getgid(), groups: process.getgroups(), status, attempts, execs }; } }`,
    ),
    {},
    ["unshare", "mount", "true"],
  );
  try {
    const run = await evaluateAttacks(c, build, ["privilege"], { instanceTimeoutMs: 60_000 });
    const r = run.byId("privilege");
    const report = r.artifact as PrivilegeReport | undefined;
    expect(report, `no report: ${r.error ?? r.feedback}`).toBeDefined();
    const p = report!;
    expect(p.uid).toBe(65534);
    expect(p.gid).toBe(65534);
    expect(p.groups).not.toContain(0);
    for (const k of ["CapInh", "CapPrm", "CapEff", "CapBnd"]) expect(p.status[k], k).toMatch(/^0+$/);
    // gVisor's /proc has no CapAmb line; ambient capabilities cannot exceed the (empty) permitted set anyway.
    expect(p.status["CapAmb"]).toMatch(/^(0+|absent)$/);
    // gVisor's /proc/self/status has no NoNewPrivs line either; runc shows the flag.
    expect(p.status["NoNewPrivs"]).toBe(c.runtime === "runsc" && p.status["NoNewPrivs"] === "absent" ? "absent" : "1");
    for (const [name, result] of Object.entries(p.attempts)) expect(result, name).toBe("EPERM");
    expect(p.execs["true (control)"]?.status, "the probe binaries run at all").toBe(0);
    // gVisor emulates user namespaces inside its own kernel (no host capability is involved);
    // mounting still fails there. Under runc the seccomp profile refuses every unshare.
    const sentryUserns = c.runtime === "runsc" && p.execs["unshare --user --map-root-user"]?.status === 0;
    const denied = Object.entries(p.execs).filter(
      ([name]) => name !== "true (control)" && name !== "setuid-bit binary" && !(sentryUserns && name === "unshare --user --map-root-user"),
    );
    for (const [name, result] of denied) expect(result.status, `${name}: ${result.stderr}`).not.toBe(0);
    return {
      outcome: `uid 65534, all capability sets 0, NoNewPrivs 1, seccomp ${p.status["Seccomp"]}; setuid/setgid/chown EPERM; unshare (${sentryUserns ? "mount, net, pid; a user ns only inside gVisor's kernel" : "user, mount, net, pid"}) and mount fail`,
      containMs: r.durationMs,
    };
  } finally {
    await rm(build, { recursive: true, force: true });
  }
}
