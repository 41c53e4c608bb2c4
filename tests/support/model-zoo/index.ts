/**
 * The model zoo: personas of documented model habits (personas.ts), served by the one shared
 * scripted OpenAI-compatible server. Each persona answers from what the request shows, so the
 * harness's probe, the seed's tool loop and its text strategy all meet the same habit.
 *
 *   const server = await startZooServer(persona("hermes-in-text"));
 *   // OPENAI_BASE_URL = server.baseURL; every request, the probe's included, is in server.requests
 */
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../scripted-openai-server.js";
import type { Persona } from "./personas.js";
import { viewOf } from "./request-view.js";

export { PERSONAS, persona, type Persona } from "./personas.js";
export { viewOf, type RequestView } from "./request-view.js";
export { planEdit, filesAfter, type Plan, type FileChange } from "./edit-plan.js";

/** The scripted server answering as `p`, the probe's requests included. */
export function startZooServer(p: Persona): Promise<ScriptedOpenAIServer> {
  const memory = new Set<string>();
  return startScriptedOpenAIServer((request) => p.reply(viewOf(request), request, memory), { probes: "script" });
}
