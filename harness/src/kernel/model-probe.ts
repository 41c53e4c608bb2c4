/**
 * What `evolve run` and `evolve doctor --model` learn of an endpoint with a few tiny requests
 * (harness/src/llm/model-probe.ts makes it): whether it answers, how it calls tools, and the
 * mode the seed meta agent will use. One schema for the broker that makes it and run.json
 * that keeps it (read back through zod).
 */
import { z } from "zod";

/** How the endpoint took one `tool_choice` value. */
export const ChoiceOutcome = z.enum(["ok", "refused", "ignored", "failed", "not_tried"]);
export type ChoiceOutcome = z.infer<typeof ChoiceOutcome>;

const Count = z.number().int().nonnegative();

export const ModelProbe = z.object({
  model: z.string().max(200),
  at: z.iso.datetime(),
  /** Why the probe did not run; null when it ran. */
  skipped: z.string().max(500).nullable(),
  answered: z.boolean(),
  /** The endpoint sent reasoning (reasoning_content or reasoning) beside the content. */
  reasoning: z.boolean(),
  toolCalls: z.enum(["native", "in_text", "ignored", "refused", "unknown"]),
  /** How calls written in the text look (hermes, qwen3-xml, llama, mistral, json); null otherwise. */
  textFormat: z.string().max(40).nullable(),
  /** The native call's arguments were valid JSON; null when no native call came. */
  argumentsJson: z.boolean().nullable(),
  toolChoice: z.object({ required: ChoiceOutcome, named: ChoiceOutcome }),
  /** What the seed meta agent will do: run its tool loop, or ask for edits as text. */
  mode: z.enum(["tools", "text"]),
  reason: z.string().max(1_000),
  calls: Count,
  tokens: z.object({ prompt: Count, completion: Count }),
  /** Errors met (already free of credentials), at most a few. */
  errors: z.array(z.string().max(400)).max(8),
});
export type ModelProbe = z.infer<typeof ModelProbe>;
