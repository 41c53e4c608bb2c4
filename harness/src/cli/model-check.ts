/**
 * `evolve doctor --model NAME`: the model probe (harness/src/llm/model-probe.ts) against the
 * configured endpoint, as doctor's checks: does it answer, does it take tools (native, written
 * in the text, refused), which tool_choice values, are the arguments JSON, and which mode the
 * seed meta agent will use and why. The same probe `evolve run` records in run.json.
 */
import type { LlmSetup } from "../llm/index.js";

/** One line of doctor's report: ok, a failure, or information (null). */
export interface DoctorCheck {
  name: string;
  ok: boolean | null;
  detail: string;
  fix?: string;
}

/** The probe as doctor checks; a failure when the endpoint does not answer. */
export async function modelChecks(setup: LlmSetup): Promise<DoctorCheck[]> {
  if (!setup.available) {
    return [{ name: "model probe", ok: false, detail: `--model ${setup.model}: no endpoint to probe (${setup.reason})`, fix: "set OPENAI_BASE_URL (and OPENAI_API_KEY if the endpoint needs one)" }];
  }
  const { createLlmPort, describeProbe, probeModel } = await import("../llm/index.js");
  const port = createLlmPort(setup);
  if (port === null) return [];
  const probe = await probeModel(port);
  const lines = describeProbe(probe);
  const checks: DoctorCheck[] = lines.map((detail, i) => ({ name: i === 0 ? `model ${setup.model}` : "", ok: null, detail }));
  if (!probe.answered) {
    checks[0] = { name: `model ${setup.model}`, ok: false, detail: lines[0] ?? "no answer", fix: `check the model name (GET ${setup.baseURL ?? "https://api.openai.com/v1"}/models lists them) and the key; ${probe.errors[0] ?? ""}`.trim() };
  } else if (checks[0] !== undefined) {
    checks[0].ok = true;
  }
  if (probe.toolCalls === "refused") {
    checks.push({ name: "", ok: null, detail: "tools are refused", fix: "vLLM: serve with --enable-auto-tool-choice --tool-call-parser <the model's parser>; Ollama: a model whose template supports tools. Runs work without them (edits as text)" });
  }
  return checks;
}
