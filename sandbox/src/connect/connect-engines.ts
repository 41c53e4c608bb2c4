/**
 * The one wiring point: the only code that makes Docker clients. No engine named: the local
 * engine, exactly as before (DOCKER_HOST or the default socket, one DockerEngine). Engines
 * named: a fleet of them, each pinged and checked first. One that does not answer is
 * reported and skipped (it joins when it answers); one of another CPU architecture or without
 * the run's runtime is refused; with `requireAll`, either stops the command here.
 */
import type Docker from "dockerode";
import { arch } from "node:os";
import { DockerEngine, MAX_WARM_POOL } from "../docker/index.js";
import { localAddress, resolveEngineAddress, uniqueNames, type EngineAddress } from "./engine-address.js";
import { connectFailure } from "./engine-errors.js";
import { DEFAULT_HEALTH, EngineFleet, type HealthSettings } from "../fleet/index.js";
import { LOCAL_ENGINE, type EngineEntry, type EngineSelection } from "./engine-selection.js";
import { EvolveError } from "../../../harness/src/kernel/index.js";
import { FleetMember } from "../fleet/index.js";
import { DEFAULT_LIMITS } from "../port/index.js";
import type { SandboxEngine } from "../port/index.js";
import type { EngineInfo, Runtime, SandboxLimits } from "../port/index.js";

export interface EngineOptions {
  /** Sandboxes kept created-and-started per kind of spec (per engine); overrides everything else. */
  warmPool?: number;
  /** The pool size when EVOLVE_WARM_POOL is unset (default 0: no pool). */
  warmPoolDefault?: number;
  /**
   * A cgroup every container of these engines goes under (Docker's CgroupParent): their CPU
   * adds up there, removed containers included (bench/cpu.ts reads it). Absent: the engine's default.
   */
  cgroupParent?: string;
}

export interface ConnectOptions extends EngineOptions {
  /** The runtime the run asks for: an engine without it is refused (default runc). */
  runtime?: Runtime;
  /** Per-container limits the default slots are computed against (default DEFAULT_LIMITS). */
  limits?: Partial<SandboxLimits>;
  /** Health checks of a fleet (tests shorten them). */
  health?: Partial<HealthSettings>;
  /** A line for the person: an engine skipped or refused at start, and why. */
  onNote?: (message: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** Connects engines once a command knows its settings: the CLI's wiring point hands one down. */
export type EngineConnector = (settings: Pick<ConnectOptions, "runtime" | "warmPoolDefault" | "onNote">) => Promise<SandboxEngine>;

/** How long an engine has to answer its first ping and info. */
const CONNECT_TIMEOUT_MS = 10_000;

/** EVOLVE_WARM_POOL when set (0 turns the pool off), else `fallback`; anything but 0..8 is refused. */
export function warmPoolFromEnvironment(fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env["EVOLVE_WARM_POOL"];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > MAX_WARM_POOL) {
    throw new EvolveError("invalid_options", `EVOLVE_WARM_POOL must be a whole number from 0 to ${MAX_WARM_POOL}, not "${raw}"`, {
      hint: "unset it for the default, or set 0 to turn the warm pool off",
    });
  }
  return value;
}

/** Docker's name for the CPU this process runs on (what `docker info` calls Architecture). */
export function hostArchitecture(): string {
  const names: Record<string, string> = { x64: "x86_64", arm64: "aarch64", arm: "armv7l", ppc64: "ppc64le", s390x: "s390x", riscv64: "riscv64" };
  return names[arch()] ?? arch();
}

function cgroupOf(options: { cgroupParent?: string }): { cgroupParent?: string } {
  return options.cgroupParent === undefined ? {} : { cgroupParent: options.cgroupParent };
}

// dockerode (with ssh2 and protobufjs) takes a few tenths of a second to load: only a command
// that connects pays for it, not `--help` or `evolve ls` (tests/architecture/light-commands.test.ts).
async function dockerClient(): Promise<typeof Docker> {
  return (await import("dockerode")).default;
}

/** Connects the engines of `selection`; the local engine alone when it names none. */
export async function connectEngines(selection: EngineSelection = LOCAL_ENGINE, options: ConnectOptions = {}): Promise<SandboxEngine> {
  const env = options.env ?? process.env;
  const warmPool = options.warmPool ?? warmPoolFromEnvironment(options.warmPoolDefault ?? 0, env);
  if (selection.engines.length === 0) {
    const address = localAddress(env);
    const Docker = await dockerClient();
    const engine = new DockerEngine(new Docker(), { name: address.name, endpoint: address.endpoint, warmPool, ...cgroupOf(options) });
    try {
      await engine.ping(CONNECT_TIMEOUT_MS);
    } catch (error) {
      throw new EvolveError("engine_unreachable", `no Docker engine answers at ${address.endpoint} (${(error as Error).message})`, {
        cause: error,
        hint: "start one (as root on Debian, `npm test` or `npm start` does it for you; elsewhere `sudo systemctl start docker`) or set DOCKER_HOST",
      });
    }
    return engine;
  }
  const runtime = options.runtime ?? "runc";
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const resolved = await Promise.all(selection.engines.map(async (entry) => ({ ...(await resolveEngineAddress(entry, env)), entry })));
  const admitted = await Promise.all(uniqueNames(resolved).map((address) => admit(address, address.entry, { warmPool, runtime, limits, ...cgroupOf(options) })));
  const members = admitted.map((a) => a.member);
  const problems = admitted.filter((a) => a.member.state !== "up");
  if (problems.length > 0 && (selection.requireAll || problems.length === members.length)) {
    const first = problems[0]!.failure;
    const list = problems.map(({ member: m }) => `${m.name} (${m.state === "down" ? "unreachable" : "refused"}): ${m.reason}`).join("; ");
    throw new EvolveError(first.code, `${selection.requireAll ? "every engine is required, but " : "no engine can be used: "}${list}`, {
      hint: `${first.hint ?? ""}${selection.requireAll ? "; or drop --require-all-engines to run on the others" : ""}`.replace(/^; /, ""),
    });
  }
  for (const { member: m } of problems) {
    options.onNote?.(m.state === "down" ? `engine ${m.name} (${m.engine.endpoint}) is unreachable: ${m.reason}; skipped until it answers` : `engine ${m.name} (${m.engine.endpoint}) is refused: ${m.reason}`);
  }
  const health = { ...DEFAULT_HEALTH, ...options.health };
  return new EngineFleet(members, health, async (member) => {
    const info = await member.engine.info();
    member.info = info;
    return refusal(info, runtime);
  });
}

/** One named engine, connected and checked: up, down (did not answer) or refused; `failure` says why not up. */
async function admit(
  address: EngineAddress,
  entry: EngineEntry,
  settings: { warmPool: number; runtime: Runtime; limits: SandboxLimits; cgroupParent?: string },
): Promise<{ member: FleetMember; failure: EvolveError }> {
  const Docker = await dockerClient();
  const engine = new DockerEngine(address.options === null ? new Docker() : new Docker(address.options), { name: address.name, endpoint: address.endpoint, warmPool: settings.warmPool, ...cgroupOf(settings) });
  const slots = entry.slots ?? null;
  let info: EngineInfo;
  try {
    await engine.ping(CONNECT_TIMEOUT_MS);
    info = await engine.info();
  } catch (error) {
    const failure = connectFailure(error, address);
    // A certificate or host-key problem does not mend itself: refused. Silence may: down, and retried.
    const state = failure.code === "engine_tls" || failure.code === "engine_refused" ? "refused" : "down";
    return { member: new FleetMember(engine, { state, reason: failure.message, info: null, slots }, settings.limits), failure };
  }
  const refused = refusal(info, settings.runtime);
  const member = new FleetMember(engine, { state: refused === null ? "up" : "refused", reason: refused, info, slots }, settings.limits);
  return { member, failure: new EvolveError("engine_refused", `${address.name} is refused: ${refused}`, { hint: "leave that engine out, or run with what it has" }) };
}

/** Why an engine cannot serve the run, or null. The image built FROM scratch carries this host's node. */
export function refusal(info: EngineInfo, runtime: Runtime): string | null {
  const host = hostArchitecture();
  if (!process.env["EVOLVE_BASE_IMAGE"] && info.architecture !== host) {
    return `its CPU architecture is ${info.architecture}, this host's is ${host} (the runtime image carries this host's node; EVOLVE_BASE_IMAGE names a multi-architecture base instead)`;
  }
  if (!info.runtimes.includes(runtime)) {
    return `it has no ${runtime} runtime (it has ${info.runtimes.join(", ") || "none we use"}); install gVisor there and register it in its daemon.json, or leave it out of --runtime ${runtime} runs`;
  }
  return null;
}
