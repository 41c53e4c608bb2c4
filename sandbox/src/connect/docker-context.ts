/**
 * Docker contexts, read the way the docker CLI stores them: $DOCKER_CONFIG (or ~/.docker)
 * holds contexts/meta/<sha256 of the name>/meta.json with the engine's address, and
 * contexts/tls/<same>/docker/{ca,cert,key}.pem with its TLS material. Read only; the CLI
 * (`docker context create`) writes them.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { EvolveError, readJson } from "../../../harness/src/kernel/index.js";

const ContextMeta = z.object({
  Name: z.string(),
  Endpoints: z.object({
    docker: z.object({ Host: z.string().min(1), SkipTLSVerify: z.boolean().optional() }),
  }),
});
type ContextMeta = z.infer<typeof ContextMeta>;

export interface TlsFiles {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
  /** The folder they were read from, for messages. */
  dir: string;
}

export interface DockerContext {
  name: string;
  host: string;
  skipTlsVerify: boolean;
  /** Null when the context stores no TLS material. */
  tls: TlsFiles | null;
}

/** The folder the docker CLI keeps its configuration in. */
export function dockerConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return env["DOCKER_CONFIG"] || join(homedir(), ".docker");
}

/** ca.pem, cert.pem and key.pem of `dir`, or null when none of them is there. */
export async function readTlsFiles(dir: string): Promise<TlsFiles | null> {
  const read = (file: string): Promise<Buffer | null> => readFile(join(dir, file)).catch(() => null);
  const [ca, cert, key] = await Promise.all([read("ca.pem"), read("cert.pem"), read("key.pem")]);
  if (ca === null && cert === null && key === null) return null;
  if (ca === null || cert === null || key === null) {
    const missing = [ca === null ? "ca.pem" : null, cert === null ? "cert.pem" : null, key === null ? "key.pem" : null].filter(Boolean);
    throw new EvolveError("engine_tls", `${dir} has TLS material but not ${missing.join(", ")}`, {
      hint: "an engine over TCP needs all three: the CA that signed the engine's certificate, and this client's certificate and key",
    });
  }
  return { ca, cert, key, dir };
}

/** The context `name` from the CLI's store; an unknown name says where it looked. */
export async function readDockerContext(name: string, env: NodeJS.ProcessEnv = process.env): Promise<DockerContext> {
  const root = join(dockerConfigDir(env), "contexts");
  const id = createHash("sha256").update(name).digest("hex");
  const metaPath = join(root, "meta", id, "meta.json");
  const read = await readJson(ContextMeta, metaPath);
  if (!read.ok && (read.problem === "missing" || read.problem === "unreadable")) {
    throw new EvolveError("invalid_options", `no Docker context named "${name}" in ${root}`, {
      hint: "`docker context ls` lists the contexts (DOCKER_CONFIG picks another store); or give the engine as a URL: unix:///path, tcp://host:2376, ssh://user@host",
    });
  }
  if (!read.ok) {
    throw new EvolveError("invalid_options", `the Docker context "${name}" (${metaPath}) does not read: ${read.reason}`, { hint: "recreate it with `docker context create`" });
  }
  const meta = read.value;
  return {
    name,
    host: meta.Endpoints.docker.Host,
    skipTlsVerify: meta.Endpoints.docker.SkipTLSVerify === true,
    tls: await readTlsFiles(join(root, "tls", id, "docker")),
  };
}
