/**
 * Host-key checking for engines reached over SSH: the key the server shows must be one that
 * ~/.ssh/known_hosts lists for that host (plain or hashed names, `[host]:port` for another
 * port, `@revoked` honoured), as OpenSSH's StrictHostKeyChecking would. dockerode's SSH
 * transport checks nothing by itself.
 */
import { createHmac } from "node:crypto";
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

interface Entry {
  revoked: boolean;
  names: string;
  key: Buffer;
}

function parse(text: string): Entry[] {
  const entries: Entry[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const fields = line.split(/\s+/);
    const marker = fields[0]?.startsWith("@") ? fields.shift() : undefined;
    if (marker !== undefined && marker !== "@revoked") continue; // @cert-authority: not supported
    const [names, , key] = fields;
    if (names === undefined || key === undefined) continue;
    entries.push({ revoked: marker === "@revoked", names, key: Buffer.from(key, "base64") });
  }
  return entries;
}

/** Whether one known_hosts name field (plain names, or one hashed `|1|salt|hash`) names `host`. */
function names(field: string, host: string): boolean {
  if (field.startsWith("|1|")) {
    const [, , salt, hash] = field.split("|");
    if (salt === undefined || hash === undefined) return false;
    return createHmac("sha1", Buffer.from(salt, "base64")).update(host).digest("base64") === hash;
  }
  return field.split(",").includes(host);
}

/** How known_hosts names a host: `host` on port 22, `[host]:port` on another. */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** The keys known_hosts (its text) trusts for `host` at `port`, and those it revoked. */
export function keysFor(text: string, host: string, port: number): { trusted: Buffer[]; revoked: Buffer[] } {
  const name = knownHostsName(host, port);
  const trusted: Buffer[] = [];
  const revoked: Buffer[] = [];
  for (const entry of parse(text)) {
    if (entry.revoked) revoked.push(entry.key);
    else if (names(entry.names, name)) trusted.push(entry.key);
  }
  return { trusted, revoked };
}

/** ssh2's hostVerifier: true only for a key known_hosts trusts for the host and has not revoked. */
export function hostKeyVerifier(keys: { trusted: Buffer[]; revoked: Buffer[] }): (key: Buffer) => boolean {
  return (key) => !keys.revoked.some((k) => k.equals(key)) && keys.trusted.some((k) => k.equals(key));
}

/** The text of the user's known_hosts ("" when there is none). */
export async function readKnownHosts(env: NodeJS.ProcessEnv = process.env): Promise<{ path: string; text: string }> {
  const path = join(env["HOME"] || homedir(), ".ssh", "known_hosts");
  return { path, text: await readFile(path, "utf8").catch(() => "") };
}
