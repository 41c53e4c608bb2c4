/**
 * The one place the CLI wires the sandbox's engines: `--engine SPEC` (repeatable),
 * `--engines FILE` and `--require-all-engines` on run, resume, doctor, clean, replay and
 * check become one connector, which the command calls once and hands the engine (one local
 * engine, or a fleet) down. Nothing else in the harness connects to Docker.
 */
import type { EngineConnector } from "../../../sandbox/src/index.js";
import type { CommandInput, OptionSpec } from "./command.js";

export const ENGINE_OPTIONS: OptionSpec = {
  engine: { type: "string", multiple: true },
  engines: { type: "string" },
  "require-all-engines": { type: "boolean" },
};

export const ENGINE_HELP = `  --engine SPEC          run containers on this Docker engine (repeatable): a Docker context name
                         (docker context ls) or a URL: unix:///path, tcp://host:2376 (TLS with client
                         certificates), ssh://user@host; default: the local engine (DOCKER_HOST)
  --engines FILE         the engines as JSON: { "engines": [ { "spec": "...", "slots": 4, "label": "box-a" } ] }
  --require-all-engines  stop before anything starts when an engine is unreachable or refused`;

/** The connector of these parsed option values (the engines file is read when it is called). */
export function engineConnector(values: CommandInput["values"]): EngineConnector {
  const engine = values["engine"];
  const specs = Array.isArray(engine) ? engine.filter((v): v is string => typeof v === "string") : [];
  const file = typeof values["engines"] === "string" ? values["engines"] : undefined;
  const requireAll = values["require-all-engines"] === true;
  return async (settings) => {
    // Loaded when a command connects: `--help` and bad options stay instant.
    const { connectEngines, engineSelection } = await import("../../../sandbox/src/index.js");
    const selection = await engineSelection({ engine: specs, ...(file === undefined ? {} : { enginesFile: file }), requireAll });
    return connectEngines(selection, settings);
  };
}
