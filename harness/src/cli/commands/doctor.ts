/** `evolve doctor`: what the harness sees, and the fix for each problem. */
import { EvolveError } from "../../errors/index.js";
import type { CliCommand } from "../command.js";

type Check = { name: string; ok: boolean | null; detail: string; fix?: string };

export const doctor: CliCommand = {
  name: "doctor",
  summary: "check the Docker engine, runtimes, runtime image and LLM configuration",
  help: `usage: evolve doctor
  Builds the runtime image if it is missing or out of date (a few seconds, offline).`,
  options: {},
  positionals: { min: 0, max: 0, names: "" },
  async run({ out }) {
    const { connectEngine } = await import("../../../../sandbox/src/index.js");
    const { resolveLlmSetup } = await import("../../llm/index.js");
    const checks: Check[] = [];
    let engine;
    try {
      engine = await connectEngine();
      const info = await engine.info();
      checks.push({ name: "engine", ok: true, detail: `${info.endpoint}, Docker ${info.version} (API ${info.apiVersion})` });
      const gvisor = info.runtimes.includes("runsc");
      checks.push({
        name: "runtimes",
        ok: true,
        detail: `${info.runtimes.join(", ")}${gvisor ? "" : " (gVisor runsc not registered: --runtime runsc unavailable)"}`,
        ...(gvisor ? {} : { fix: "optional: install gVisor (Debian: apt-get install runsc) and register it in /etc/docker/daemon.json with runtimeArgs --network=none --platform=ptrace" }),
      });
    } catch (error) {
      const e = error instanceof EvolveError ? error : new EvolveError("engine_unreachable", String(error));
      checks.push({ name: "engine", ok: false, detail: e.message, ...(e.hint ? { fix: e.hint } : {}) });
    }
    if (engine) {
      const image = await engine.ensureRuntimeImage({ onProgress: (m) => out(m) }).catch((error: Error) => error);
      if (image instanceof Error) checks.push({ name: "runtime image", ok: false, detail: image.message, fix: "read the build error above; `npx evolve doctor` retries the build" });
      else checks.push({ name: "runtime image", ok: true, detail: `${image.tag} (${image.built ? "built now" : "up to date"}; FROM scratch, offline)` });
      const leftovers = await engine.countManaged();
      const any = leftovers.containers + leftovers.volumes > 0;
      checks.push({
        name: "sandboxes",
        ok: true,
        detail: `${leftovers.containers} containers and ${leftovers.volumes} volumes labelled by evolve`,
        ...(any ? { fix: "if no evolve run is active, `npx evolve clean` removes them" } : {}),
      });
    }
    try {
      const llm = resolveLlmSetup(process.env);
      checks.push(
        llm.available
          ? { name: "llm", ok: true, detail: `model ${llm.model} at ${llm.baseURL ?? "api.openai.com"}, key ${llm.apiKey ? "set (not shown)" : "not set"}` }
          : { name: "llm", ok: null, detail: `not configured (${llm.reason}): runs use the offline strategy`, fix: "to use a model, set OPENAI_BASE_URL (and OPENAI_API_KEY if the endpoint needs one) and pass --model" },
      );
    } catch (error) {
      checks.push({ name: "llm", ok: false, detail: (error as Error).message, fix: "fix OPENAI_BASE_URL / OPENAI_API_KEY" });
    }
    for (const check of checks) {
      const mark = check.ok === true ? "ok " : check.ok === false ? "FAIL" : "-- ";
      out(`${mark.padEnd(4)} ${check.name.padEnd(14)} ${check.detail}`);
      if (check.fix) out(`     ${"".padEnd(14)} fix: ${check.fix}`);
    }
    return checks.some((c) => c.ok === false) ? 1 : 0;
  },
};
