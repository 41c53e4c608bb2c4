import { LlmBroker } from "./broker.js";
import type { BudgetLedger, BudgetLimits } from "./budget-ledger.js";
import type { RequestCaps } from "./agent-request.js";
import type { LlmSetup } from "./llm-config.js";
import type { LlmPort } from "./llm-port.js";
import { createOpenAiPort, type OpenAiPortDeps } from "./openai-port.js";

/** The real port for a setup, or null when the run is offline. */
export function createLlmPort(setup: LlmSetup, deps: OpenAiPortDeps = {}): LlmPort | null {
  return setup.available ? createOpenAiPort(setup, deps) : null;
}

/**
 * One broker for one generation (or one evaluation), wired from the run's setup and ledger:
 * the usual way for the evolution loop to get its `onLlm` / `onTool` callbacks.
 * Pass `port` to serve from elsewhere (a replay port); it defaults to the setup's endpoint.
 */
export function createGenerationBroker(options: {
  setup: LlmSetup;
  runLedger: BudgetLedger;
  generationLimits: BudgetLimits;
  port?: LlmPort | null;
  caps?: RequestCaps;
  /** Epoch ms the generation ends (no LLM retry starts past it). */
  deadline?: number;
}): LlmBroker {
  const { setup } = options;
  const port = options.port === undefined ? createLlmPort(setup) : options.port;
  const secrets = setup.available && setup.apiKey !== null ? [setup.apiKey.reveal()] : [];
  return new LlmBroker({
    port,
    model: port?.model ?? setup.model,
    price: setup.price,
    generationLimits: options.generationLimits,
    runLedger: options.runLedger,
    secrets,
    ...(options.caps === undefined ? {} : { caps: options.caps }),
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
  });
}
