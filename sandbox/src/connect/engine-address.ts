/**
 * Where an engine is and how to reach it: a `--engine` spec (a Docker context name or a URL)
 * turned into a name for messages and the client options dockerode takes. TCP is only ever
 * spoken with TLS and client certificates: Docker's plain TCP port makes anyone who reaches
 * it root on that machine.
 */
import type Docker from "dockerode";
import { dockerConfigDir, readDockerContext, readTlsFiles, type TlsFiles } from "./docker-context.js";
import type { EngineEntry } from "./engine-selection.js";
import { EvolveError } from "../../../harness/src/kernel/index.js";
import { hostKeyVerifier, keysFor, knownHostsName, readKnownHosts } from "./known-hosts.js";
import { SshDialAgent, type SshTarget } from "./ssh-dial-agent.js";

export interface EngineAddress {
  /** The entry's label, else the context name, else the URL's host. */
  name: string;
  /** The URL, for messages (never key material). */
  endpoint: string;
  /** Explicit client options; null: the environment's engine (DOCKER_HOST or the default socket). */
  options: Docker.DockerOptions | null;
}

/** The local engine as dockerode finds it without options: DOCKER_HOST, else the default socket. */
export function localAddress(env: NodeJS.ProcessEnv = process.env): EngineAddress {
  return { name: "local", endpoint: env["DOCKER_HOST"] || "unix:///var/run/docker.sock", options: null };
}

/** Options that leave nothing to the environment's DOCKER_HOST defaults, which dockerode merges in. */
const NOTHING_FROM_ENV: Docker.DockerOptions = { socketPath: undefined, host: undefined, port: undefined, protocol: undefined, ca: undefined, cert: undefined, key: undefined };

/** Resolves one entry; a problem (an unknown context, TCP without TLS) is an EvolveError naming it. */
export async function resolveEngineAddress(entry: EngineEntry, env: NodeJS.ProcessEnv = process.env): Promise<EngineAddress> {
  const spec = entry.spec.trim();
  if (spec === "default") return { ...localAddress(env), name: entry.label ?? "local" };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) {
    const tlsDir = entry.tlsDir ?? env["DOCKER_CERT_PATH"] ?? dockerConfigDir(env);
    return fromUrl(spec, entry.label, () => readTlsFiles(tlsDir), `the folder ${tlsDir}`, env);
  }
  const context = await readDockerContext(spec, env);
  if (context.skipTlsVerify) {
    throw new EvolveError("engine_tls", `the Docker context "${spec}" skips verifying the engine's certificate (SkipTLSVerify)`, {
      hint: "evolve verifies every remote engine: recreate the context with the engine's CA (docker context create NAME --docker host=...,ca=...,cert=...,key=...)",
    });
  }
  return fromUrl(context.host, entry.label ?? spec, async () => context.tls, `the context "${spec}"`, env);
}

async function fromUrl(url: string, label: string | undefined, tls: () => Promise<TlsFiles | null>, tlsSource: string, env: NodeJS.ProcessEnv): Promise<EngineAddress> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EvolveError("invalid_options", `"${url}" is not an engine URL`, { hint: "unix:///path/docker.sock, tcp://host:2376 or ssh://user@host" });
  }
  switch (parsed.protocol) {
    case "unix:": {
      const socketPath = parsed.pathname;
      if (socketPath === "" || socketPath === "/") throw new EvolveError("invalid_options", `"${url}" names no socket`, { hint: "unix:///var/run/docker.sock" });
      return { name: label ?? socketPath, endpoint: `unix://${socketPath}`, options: { ...NOTHING_FROM_ENV, socketPath } };
    }
    case "tcp:":
    case "https:": {
      const files = await tls();
      const endpoint = `tcp://${parsed.host}`;
      if (files === null) {
        throw new EvolveError("engine_tls", `no TLS client certificate for the engine at ${endpoint} in ${tlsSource}`, {
          hint: "a TCP engine must use TLS with client certificates (dockerd --tlsverify): put ca.pem, cert.pem and key.pem there, or name a Docker context that holds them",
        });
      }
      const port = parsed.port === "" ? 2376 : Number(parsed.port);
      const options: Docker.DockerOptions = { ...NOTHING_FROM_ENV, host: parsed.hostname.replace(/^\[|\]$/g, ""), port, protocol: "https", ca: files.ca, cert: files.cert, key: files.key };
      return { name: label ?? parsed.hostname, endpoint, options };
    }
    case "ssh:": {
      // Each request runs `docker system dial-stdio` on the remote host over a shared login
      // (ssh-dial-agent.ts), through the ssh-agent; only a host key known_hosts trusts is accepted.
      const port = parsed.port === "" ? 22 : Number(parsed.port);
      const username = decodeURIComponent(parsed.username) || undefined;
      const agent = env["SSH_AUTH_SOCK"];
      const knownHosts = await readKnownHosts(env);
      const keys = keysFor(knownHosts.text, parsed.hostname, port);
      if (keys.trusted.length === 0) {
        throw new EvolveError("engine_refused", `${knownHosts.path} has no host key for ${knownHostsName(parsed.hostname, port)}`, {
          hint: `check the host's key fingerprint, then \`ssh -p ${port} ${parsed.host.replace(/:\d+$/, "")}\` once (or ssh-keyscan) to add it; evolve never accepts an unknown host key`,
        });
      }
      const target: SshTarget = { host: parsed.hostname, port, hostVerifier: hostKeyVerifier(keys), ...(username === undefined ? {} : { username }), ...(agent === undefined ? {} : { agent }) };
      // Plain HTTP over the agent's channels; "host" only names the engine in the Host header.
      // (docker-modem takes an `agent`; dockerode's option type does not list it.)
      const options: Docker.DockerOptions & { agent: SshDialAgent } = { ...NOTHING_FROM_ENV, protocol: "http", host: parsed.hostname, port, agent: new SshDialAgent(target) };
      return { name: label ?? parsed.hostname, endpoint: `ssh://${username === undefined ? "" : `${username}@`}${parsed.host}`, options };
    }
    default:
      throw new EvolveError("invalid_options", `"${url}": evolve reaches engines over unix://, tcp:// (with TLS) or ssh://, not ${parsed.protocol}//`);
  }
}

/** Names made unique in order: a second "box" becomes "box#2". */
export function uniqueNames<T extends { name: string }>(addresses: T[]): T[] {
  const seen = new Map<string, number>();
  return addresses.map((a) => {
    const n = (seen.get(a.name) ?? 0) + 1;
    seen.set(a.name, n);
    return n === 1 ? a : { ...a, name: `${a.name}#${n}` };
  });
}

