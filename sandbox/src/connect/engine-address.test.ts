import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveEngineAddress, uniqueNames } from "./engine-address.js";
import { engineSelection } from "./engine-selection.js";
import { SshDialAgent } from "./ssh-dial-agent.js";
import { defaultSlots } from "../fleet/fleet-member.js";

let config: string;
let certs: string;

/** A context as `docker context create` writes it. */
async function writeContext(name: string, host: string, options: { tls?: boolean; skipTlsVerify?: boolean } = {}): Promise<void> {
  const id = createHash("sha256").update(name).digest("hex");
  await mkdir(join(config, "contexts", "meta", id), { recursive: true });
  const meta = { Name: name, Metadata: {}, Endpoints: { docker: { Host: host, SkipTLSVerify: options.skipTlsVerify === true } } };
  await writeFile(join(config, "contexts", "meta", id, "meta.json"), JSON.stringify(meta));
  if (options.tls) {
    const dir = join(config, "contexts", "tls", id, "docker");
    await mkdir(dir, { recursive: true });
    for (const file of ["ca.pem", "cert.pem", "key.pem"]) await writeFile(join(dir, file), `${name} ${file}`);
  }
}

beforeAll(async () => {
  config = await mkdtemp(join(tmpdir(), "evolve-ctx-"));
  certs = join(config, "certs");
  await mkdir(certs);
  for (const file of ["ca.pem", "cert.pem", "key.pem"]) await writeFile(join(certs, file), `url ${file}`);
  await writeContext("box-a", "tcp://10.9.8.7:2376", { tls: true });
  await writeContext("plain", "tcp://10.9.8.7:2375");
  await writeContext("lax", "tcp://10.9.8.7:2376", { tls: true, skipTlsVerify: true });
  await writeContext("sock", "unix:///run/other/docker.sock");
});
afterAll(async () => {
  await rm(config, { recursive: true, force: true });
});

describe("engine addresses", () => {
  const env = (): NodeJS.ProcessEnv => ({ DOCKER_CONFIG: config, HOME: join(config, "no-home") });

  it("reads a Docker context from the CLI's store, TLS material included", async () => {
    const address = await resolveEngineAddress({ spec: "box-a" }, env());
    expect(address.name).toBe("box-a");
    expect(address.endpoint).toBe("tcp://10.9.8.7:2376");
    expect(address.options).toMatchObject({ host: "10.9.8.7", port: 2376, protocol: "https", socketPath: undefined });
    expect(String(address.options?.ca)).toBe("box-a ca.pem");
    expect(String(address.options?.cert)).toBe("box-a cert.pem");
    expect(String(address.options?.key)).toBe("box-a key.pem");
  });

  it("names a context that does not exist, and where it looked", async () => {
    await expect(resolveEngineAddress({ spec: "nowhere" }, env())).rejects.toThrow(`no Docker context named "nowhere" in ${join(config, "contexts")}`);
  });

  it("refuses TCP without TLS client certificates, and contexts that skip verifying the engine", async () => {
    await expect(resolveEngineAddress({ spec: "plain" }, env())).rejects.toMatchObject({ code: "engine_tls", message: expect.stringContaining("no TLS client certificate") });
    await expect(resolveEngineAddress({ spec: "lax" }, env())).rejects.toMatchObject({ code: "engine_tls", message: expect.stringContaining("SkipTLSVerify") });
  });

  it("takes URLs: unix sockets, tcp with a TLS folder, ssh through the agent", async () => {
    const sock = await resolveEngineAddress({ spec: "unix:///run/x/docker.sock", label: "x" }, env());
    expect(sock).toMatchObject({ name: "x", endpoint: "unix:///run/x/docker.sock", options: { socketPath: "/run/x/docker.sock", host: undefined } });
    const tcp = await resolveEngineAddress({ spec: "tcp://192.0.2.9:2376", tlsDir: certs }, env());
    expect(tcp).toMatchObject({ name: "192.0.2.9", endpoint: "tcp://192.0.2.9:2376", options: { host: "192.0.2.9", port: 2376, protocol: "https" } });
    expect(String(tcp.options?.cert)).toBe("url cert.pem");
    const fromEnv = await resolveEngineAddress({ spec: "tcp://192.0.2.9" }, { DOCKER_CONFIG: config, DOCKER_CERT_PATH: certs });
    expect(fromEnv.options).toMatchObject({ port: 2376 });
    await expect(resolveEngineAddress({ spec: "ssh://builder@192.0.2.10:2222" }, env())).rejects.toMatchObject({ code: "engine_refused", message: expect.stringContaining("has no host key for [192.0.2.10]:2222") });
    await mkdir(join(config, ".ssh"), { recursive: true });
    await writeFile(join(config, ".ssh", "known_hosts"), `[192.0.2.10]:2222 ssh-ed25519 ${Buffer.from("a host key").toString("base64")}\n`);
    const ssh = await resolveEngineAddress({ spec: "ssh://builder@192.0.2.10:2222" }, { ...env(), HOME: config });
    expect(ssh).toMatchObject({ name: "192.0.2.10", endpoint: "ssh://builder@192.0.2.10:2222", options: { protocol: "http", host: "192.0.2.10", port: 2222 } });
    const agent = (ssh.options as { agent?: unknown } | null)?.agent;
    expect(agent).toBeInstanceOf(SshDialAgent);
    const target = (agent as SshDialAgent).target;
    expect(target).toMatchObject({ host: "192.0.2.10", port: 2222, username: "builder" });
    const verify = target.hostVerifier;
    expect(verify(Buffer.from("a host key"))).toBe(true);
    expect(verify(Buffer.from("another key"))).toBe(false);
    const viaContext = await resolveEngineAddress({ spec: "sock" }, env());
    expect(viaContext.options).toMatchObject({ socketPath: "/run/other/docker.sock" });
    await expect(resolveEngineAddress({ spec: "http://192.0.2.9:2375" }, env())).rejects.toThrow(/not http:/);
  });

  it("keeps names unique", () => {
    expect(uniqueNames([{ name: "a" }, { name: "b" }, { name: "a" }]).map((a) => a.name)).toEqual(["a", "b", "a#2"]);
  });
});

describe("engine selection", () => {
  it("reads --engines FILE with zod and names the file and the field on a mistake", async () => {
    const good = join(config, "engines.json");
    await writeFile(good, JSON.stringify({ engines: [{ spec: "box-a", slots: 3, label: "a" }, { spec: "unix:///x.sock" }] }));
    const selection = await engineSelection({ engine: ["sock"], enginesFile: good, requireAll: true });
    expect(selection).toEqual({ engines: [{ spec: "sock" }, { spec: "box-a", slots: 3, label: "a" }, { spec: "unix:///x.sock" }], requireAll: true });
    const bad = join(config, "bad.json");
    await writeFile(bad, JSON.stringify({ engines: [{ spec: "box-a", slots: 0, host: "x" }] }));
    await expect(engineSelection({ enginesFile: bad })).rejects.toThrow(new RegExp(`--engines ${bad}:[\\s\\S]*slots`));
    await expect(engineSelection({ requireAll: true })).rejects.toThrow(/needs engines/);
  });

  it("gives each engine slots from its CPUs and memory against the per-container limits", () => {
    const limits = { nanoCpus: 1e9, memoryBytes: 512 * 2 ** 20 };
    expect(defaultSlots({ cpus: 2, memoryBytes: 24 * 2 ** 30 }, limits)).toBe(2);
    expect(defaultSlots({ cpus: 16, memoryBytes: 2 * 2 ** 30 }, limits)).toBe(3);
    expect(defaultSlots({ cpus: 1, memoryBytes: 2 ** 28 }, limits)).toBe(1);
    expect(defaultSlots({ cpus: 512, memoryBytes: 2 ** 40 }, limits)).toBe(64);
  });
});
