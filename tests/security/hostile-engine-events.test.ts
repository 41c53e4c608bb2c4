/**
 * The engine's event log, asked when a container died of a SIGKILL the harness did not send
 * (sandbox/src/docker/oom-event.ts), is a reply from the engine, which can be another machine.
 * An events stream that never ends, floods, or fails must give an answer (no OOM) within the
 * window and its grace, holding nothing; only an `oom` event makes it an OOM kill. The fake
 * engine is a plain HTTP server on a unix socket, reached through the real dockerode client.
 */
import Docker from "dockerode";
import { createServer, type ServerResponse, type Server } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { engineReportedOom } from "../../sandbox/src/docker/oom-event.js";

let server: Server | null = null;
let dir: string | null = null;
const open: ServerResponse[] = [];

async function fakeEngine(events: (res: ServerResponse) => void): Promise<Docker> {
  dir = await mkdtemp(join(tmpdir(), "evolve-fake-events-"));
  const socketPath = join(dir, "docker.sock");
  server = createServer((req, res) => {
    if (!req.url?.includes("/events")) return void res.writeHead(404).end("{}");
    open.push(res);
    events(res);
  });
  await new Promise<void>((resolve) => server!.listen(socketPath, resolve));
  return new Docker({ socketPath });
}

afterEach(async () => {
  for (const res of open.splice(0)) res.destroy();
  await new Promise((resolve) => (server === null ? resolve(undefined) : server.close(resolve)));
  server = null;
  if (dir !== null) await rm(dir, { recursive: true, force: true });
  dir = null;
});

/** A window that ends 200 ms from now: the answer must come by its end plus the 2 s bound. */
const soon = () => ({ fromMs: Date.now() - 1_000, toMs: Date.now() + 200 });

describe("a hostile engine's event log", () => {
  it("that never ends gives no OOM within the bound", async () => {
    const docker = await fakeEngine((res) => res.writeHead(200, { "content-type": "application/json" }).write(""));
    const started = Date.now();
    await expect(engineReportedOom(docker, "c1", soon())).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it("that floods other events gives no OOM within the bound", async () => {
    const docker = await fakeEngine((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const line = JSON.stringify({ Type: "container", Action: "die", id: "c1", pad: "x".repeat(60_000) }) + "\n";
      const pump = (): void => {
        while (!res.destroyed && res.write(line));
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    });
    const started = Date.now();
    await expect(engineReportedOom(docker, "c1", soon())).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it("that fails gives no OOM at once", async () => {
    const docker = await fakeEngine((res) => res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ message: "boom" })));
    const started = Date.now();
    await expect(engineReportedOom(docker, "c1", soon())).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("that reports an oom event gives an OOM kill", async () => {
    const docker = await fakeEngine((res) => res.writeHead(200, { "content-type": "application/json" }).write(JSON.stringify({ Type: "container", Action: "oom", id: "c1" }) + "\n"));
    await expect(engineReportedOom(docker, "c1", soon())).resolves.toBe(true);
  });
});
