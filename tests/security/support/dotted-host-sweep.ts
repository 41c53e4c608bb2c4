/**
 * Run (by the suite, inside `unshare --uts` with a dotted hostname such as
 * "evolve.sec.example") to check the start-up sweep on hosts whose name has dots: it
 * leaves a created container and volume labelled with a dead session of this host, sweeps
 * like `evolve run` does at start, and prints what is left as one JSON line.
 */
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { connectEngines } from "../../../sandbox/src/index.js";

const engine = await connectEngines();
const image = await engine.ensureRuntimeImage();
const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
const session = `${hostname()}.${dead.stdout}.5ec0`;
const created = await engine.createSandbox({ image: image.tag, command: image.command, labels: { session, phase: "security" } });
const before = await engine.countManaged(session);
const swept = await engine.sweep();
const after = await engine.countManaged(session);
await engine.sweep({ session });
await created.remove();
process.stdout.write(JSON.stringify({ hostname: hostname(), session, before, swept, after }) + "\n");
