/**
 * A remote engine's reply is data from another machine. An "engine" that answers /version
 * and /info with values of the wrong type or size must be refused with a clear error,
 * not turned into slots (NaN slots once meant no limit at all). The fake engine is a plain
 * HTTP server on a unix socket, reached through the real dockerode client.
 */
import Docker from "dockerode";
import { createServer, type Server } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DockerEngine } from "../../sandbox/src/docker/docker-engine.js";

let server: Server | null = null;
let dir: string | null = null;

async function fakeEngine(info: unknown, version: unknown = { Version: "27.0.0", ApiVersion: "1.46" }): Promise<DockerEngine> {
  dir = await mkdtemp(join(tmpdir(), "evolve-fake-engine-"));
  const socketPath = join(dir, "docker.sock");
  server = createServer((req, res) => {
    const body = req.url?.endsWith("/version") ? version : req.url?.endsWith("/info") ? info : {};
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server!.listen(socketPath, resolve));
  return new DockerEngine(new Docker({ socketPath }), { name: "fake", endpoint: `unix://${socketPath}`, warmPool: 0 });
}

afterEach(async () => {
  await new Promise((resolve) => (server === null ? resolve(undefined) : server.close(resolve)));
  server = null;
  if (dir !== null) await rm(dir, { recursive: true, force: true });
  dir = null;
});

describe("a hostile engine's reply", () => {
  it("is refused, naming the field, when NCPU is not a count", async () => {
    const engine = await fakeEngine({ NCPU: "many", MemTotal: 8 * 2 ** 30, Architecture: "x86_64", Runtimes: { runc: {} } });
    await expect(engine.info()).rejects.toMatchObject({ code: "engine_failed", message: expect.stringContaining("NCPU") });
  });

  it("is refused when a field is too big to be true", async () => {
    const huge = await fakeEngine({ NCPU: 4, MemTotal: 1, Architecture: "x".repeat(100_000) });
    await expect(huge.info()).rejects.toMatchObject({ code: "engine_failed", message: expect.stringContaining("Architecture") });
  });

  it("is refused when the version is not a version", async () => {
    const engine = await fakeEngine({ NCPU: 4 }, { Version: { nested: true }, ApiVersion: "1.46" });
    await expect(engine.info()).rejects.toMatchObject({ code: "engine_failed", message: expect.stringContaining("Version") });
  });

  it("is read when it is an honest one", async () => {
    const engine = await fakeEngine({ NCPU: 4, MemTotal: 8 * 2 ** 30, Architecture: "x86_64", Runtimes: { runc: {}, runsc: {} } });
    await expect(engine.info()).resolves.toMatchObject({ cpus: 4, architecture: "x86_64", runtimes: ["runc", "runsc"] });
  });
});
