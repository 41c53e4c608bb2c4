/** `evolve doctor`: what the harness sees, and the fix for each problem. */
import { EvolveError } from "../../kernel/index.js";
import type { SandboxEngine } from "../../../../sandbox/src/index.js";
import type { CliCommand } from "../command.js";
import { ENGINE_HELP, ENGINE_OPTIONS, engineConnector } from "../engine-wiring.js";
import type { DoctorCheck as Check } from "../model-check.js";

const GVISOR_FIX = "optional: install gVisor (Debian: apt-get install runsc) and register it in the engine's daemon.json with runtimeArgs --network=none --platform=ptrace";

/** Every engine behind the port: reachable, what it runs, its slots, its runtime image; then the leftovers. */
async function engineChecks(engine: SandboxEngine, out: (line: string) => void): Promise<Check[]> {
  const checks: Check[] = [];
  const single = engine.engines().length === 1 && engine.engines()[0]!.slots === null;
  if (single) await engine.info();
  const image = await engine.ensureRuntimeImage({ onProgress: (m) => out(m) }).catch((error: Error) => error);
  for (const e of engine.engines()) {
    const suffix = single ? "" : ` ${e.name}`;
    if (e.state !== "up" || e.info === null) {
      checks.push({ name: `engine${suffix}`, ok: false, detail: `${e.endpoint}: ${e.state === "refused" ? "refused" : "unreachable"}: ${e.reason ?? "no answer"}`, fix: "see the reason; `docker --host URL info` (or --context NAME) shows the same engine" });
      continue;
    }
    const i = e.info;
    const slots = e.slots === null ? "" : `; ${e.slots} slots`;
    checks.push({ name: `engine${suffix}`, ok: true, detail: `${e.endpoint}, Docker ${i.version} (API ${i.apiVersion}), ${i.architecture}, ${i.cpus} CPUs, ${(i.memoryBytes / 2 ** 30).toFixed(1)} GiB${slots}` });
    const gvisor = i.runtimes.includes("runsc");
    checks.push({
      name: `runtimes${suffix}`,
      ok: true,
      detail: `${i.runtimes.join(", ")}${gvisor ? "" : " (gVisor runsc not registered: --runtime runsc unavailable)"}`,
      ...(gvisor ? {} : { fix: GVISOR_FIX }),
    });
    if (image instanceof Error) continue;
    const base = process.env["EVOLVE_BASE_IMAGE"]?.trim();
    checks.push({ name: single ? "runtime image" : `image${suffix}`, ok: e.image !== null, detail: `${image.tag} (${e.image === "built" ? "built now" : e.image === "found" ? "up to date" : "not checked"}; ${base ? `on ${base}` : "FROM scratch, offline"})` });
  }
  if (image instanceof Error) checks.push({ name: "runtime image", ok: false, detail: image.message, fix: (image instanceof EvolveError ? image.hint : undefined) ?? "read the build error above; `npx evolve doctor` retries the build" });
  const leftovers = await engine.countManaged();
  const any = leftovers.containers + leftovers.volumes > 0;
  checks.push({
    name: "sandboxes",
    ok: true,
    detail: `${leftovers.containers} containers and ${leftovers.volumes} volumes labelled by evolve`,
    ...(any ? { fix: "if no evolve run is active, `npx evolve clean` removes them" } : {}),
  });
  return checks;
}

export const doctor: CliCommand = {
  name: "doctor",
  summary: "check the Docker engines (version, runtimes, architecture, slots, runtime image) and the LLM configuration",
  help: `usage: evolve doctor [--engine SPEC ...] [--model NAME]
  Builds the runtime image on every engine where it is missing or out of date (a few seconds, offline).
  --model NAME          probe the model at OPENAI_BASE_URL with a few tiny requests: does it answer, take tools
                        (native, written in the text, refused), tool_choice values, JSON arguments; and say which
                        mode the seed meta agent will use and why (README "Bring your own model")
${ENGINE_HELP}`,
  options: { ...ENGINE_OPTIONS, model: { type: "string" } },
  positionals: { min: 0, max: 0, names: "" },
  async run({ values, out }) {
    const { resolveLlmSetup } = await import("../../llm/index.js");
    const checks: Check[] = [];
    let engine: SandboxEngine | undefined;
    try {
      engine = await engineConnector(values)({ onNote: out });
    } catch (error) {
      const e = error instanceof EvolveError ? error : new EvolveError("engine_unreachable", String(error));
      checks.push({ name: "engine", ok: false, detail: e.message, ...(e.hint ? { fix: e.hint } : {}) });
    }
    if (engine) {
      try {
        checks.push(...(await engineChecks(engine, out)));
      } finally {
        await engine.close();
      }
    }
    try {
      const llm = resolveLlmSetup(process.env, typeof values["model"] === "string" ? { model: values["model"] } : {});
      checks.push(
        llm.available
          ? { name: "llm", ok: true, detail: `model ${llm.model} at ${llm.baseURL ?? "api.openai.com"}, key ${llm.apiKey ? "set (not shown)" : "not set"}` }
          : { name: "llm", ok: null, detail: `not configured (${llm.reason}): runs use the offline strategy`, fix: "to use a model, set OPENAI_BASE_URL (and OPENAI_API_KEY if the endpoint needs one) and pass --model" },
      );
    } catch (error) {
      checks.push({ name: "llm", ok: false, detail: (error as Error).message, fix: "fix OPENAI_BASE_URL / OPENAI_API_KEY" });
    }
    if (typeof values["model"] === "string") {
      const { modelChecks } = await import("../model-check.js");
      const setup = (() => { try { return resolveLlmSetup(process.env, { model: values["model"] }); } catch { return null; } })();
      if (setup !== null) checks.push(...(await modelChecks(setup)));
    }
    for (const check of checks) {
      const mark = check.ok === true ? "ok " : check.ok === false ? "FAIL" : "-- ";
      out(`${mark.padEnd(4)} ${check.name.padEnd(14)} ${check.detail}`);
      if (check.fix) out(`     ${"".padEnd(14)} fix: ${check.fix}`);
    }
    return checks.some((c) => c.ok === false) ? 1 : 0;
  },
};
