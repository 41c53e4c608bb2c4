import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostKeyVerifier, keysFor } from "./known-hosts.js";

let dir: string;
/** Two real host keys, as a server presents them (the blob known_hosts stores in base64). */
let hostKey: Buffer;
let otherKey: Buffer;
let hostLine: string;

async function keyPair(name: string): Promise<{ blob: Buffer; line: string }> {
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, name)]);
  const pub = (await readFile(join(dir, `${name}.pub`), "utf8")).trim().split(/\s+/);
  return { blob: Buffer.from(pub[1]!, "base64"), line: `${pub[0]} ${pub[1]}` };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "evolve-known-hosts-"));
  const host = await keyPair("host");
  const other = await keyPair("other");
  hostKey = host.blob;
  otherKey = other.blob;
  hostLine = host.line;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("known_hosts", () => {
  it("trusts the key listed for the host, by plain name or [host]:port, and no other", () => {
    const text = `# comment\nbox-a,10.0.0.5 ${hostLine}\n[10.0.0.6]:2222 ${hostLine}\n`;
    const plain = hostKeyVerifier(keysFor(text, "10.0.0.5", 22));
    expect(plain(hostKey)).toBe(true);
    expect(plain(otherKey)).toBe(false);
    expect(hostKeyVerifier(keysFor(text, "10.0.0.6", 2222))(hostKey)).toBe(true);
    expect(keysFor(text, "10.0.0.6", 22).trusted).toEqual([]);
    expect(keysFor(text, "10.0.0.7", 22).trusted).toEqual([]);
  });

  it("reads hashed names as ssh-keygen -H writes them, and honours @revoked", async () => {
    const file = join(dir, "known_hosts");
    await writeFile(file, `10.0.0.5 ${hostLine}\n`);
    execFileSync("ssh-keygen", ["-q", "-H", "-f", file]);
    const hashed = await readFile(file, "utf8");
    expect(hashed).not.toContain("10.0.0.5");
    expect(hostKeyVerifier(keysFor(hashed, "10.0.0.5", 22))(hostKey)).toBe(true);
    expect(hostKeyVerifier(keysFor(hashed, "10.0.0.9", 22))(hostKey)).toBe(false);
    const revoked = `${hashed}@revoked * ${hostLine}\n`;
    expect(hostKeyVerifier(keysFor(revoked, "10.0.0.5", 22))(hostKey)).toBe(false);
  });
});
