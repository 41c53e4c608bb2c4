/**
 * A persona of the shared scripted OpenAI server (scripted-openai-server.ts) for the
 * ts-exercises task: a model that writes a correct solution only when the prompt gives it
 * enough. It recognises the exercise by its statement, then
 *
 * - with the signature and every example (call and result) in the prompt: the task's
 *   reference solution, wrapped in prose and a ```ts fence as models do;
 * - with the signature but not the examples: a module that exports the right name and
 *   answers null to everything (it compiles; it passes only tests that expect null);
 * - without the signature: a guess at the name (`solution`), which does not compile.
 *
 * So a meta agent that puts the signature and the examples into the task agent's prompt
 * raises the score measurably, step by step. Anything that is not an exercise prompt gets a
 * plain refusal text (no tool calls).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { callText, type Exercise } from "../../tasks/ts-exercises/exercises/exercise.js";
import { EXERCISES } from "../../tasks/ts-exercises/exercises/index.js";
import type { RecordedRequest, ScriptFn, ScriptedReply } from "./scripted-openai-server.js";

const REFERENCE_DIR = join(import.meta.dirname, "../../tasks/ts-exercises/reference");

/** What the persona was asked, by how much the prompt gave it. */
export interface PersonaTally {
  full: number;
  signatureOnly: number;
  bare: number;
  other: number;
}

export interface ExercisePersona {
  readonly script: ScriptFn;
  readonly tally: PersonaTally;
}

function promptText(request: RecordedRequest): string {
  return (request.body?.messages ?? []).map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
}

function exerciseIn(text: string): Exercise | null {
  for (const exercise of EXERCISES.values()) if (text.includes(exercise.statement)) return exercise;
  return null;
}

/** Every example of the exercise, call and result, appears in the prompt. */
function hasExamples(exercise: Exercise, text: string): boolean {
  return exercise.tests.filter((t) => t.example === true).every((t) => text.includes(callText(exercise, t.args)) && text.includes(JSON.stringify(t.expect)));
}

function fenced(prose: string, code: string): ScriptedReply {
  return { content: `${prose}\n\n\`\`\`ts\n${code.trim()}\n\`\`\`\n` };
}

/** The persona, with a tally of what it was asked. */
export function exercisePersona(): ExercisePersona {
  const tally: PersonaTally = { full: 0, signatureOnly: 0, bare: 0, other: 0 };
  const script: ScriptFn = (request) => {
    const text = promptText(request);
    const exercise = exerciseIn(text);
    if (exercise === null) {
      tally.other++;
      return { content: "I can only help with the exercise I am given." };
    }
    if (!text.includes(`function ${exercise.fn}`)) {
      tally.bare++;
      return fenced("Here is a solution.", "export function solution(input: any): any {\n  return input;\n}");
    }
    if (!hasExamples(exercise, text)) {
      tally.signatureOnly++;
      return fenced("Without examples I am not sure what is wanted; this is a start.", `export function ${exercise.fn}(...args: any[]): any {\n  return null;\n}`);
    }
    tally.full++;
    return fenced("Here is the module.", readFileSync(join(REFERENCE_DIR, `${exercise.slug}.ts`), "utf8"));
  };
  return { script, tally };
}
