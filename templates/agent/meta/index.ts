/**
 * The meta agent: `improve` rewrites this agent tree (its own files included) through
 * ctx.files, guided by the parent's visible feedback in `request`. It runs only in a
 * container; whatever it writes is validated (policy, compile, signature, import) and
 * evaluated before it counts.
 *
 * This blank one asks the run's LLM, when there is one, for a new task/index.ts. Without an
 * LLM it only appends to NOTES.md, so every child is valid and scores like its parent: write
 * your own strategy here (the seed agent, `evolve new agent DIR`, has an offline one).
 */
import type { ImproveContext, ImproveReport, ImproveRequest } from "@evolve/contract";

const SOLVER = "task/index.ts";

function prompt(request: ImproveRequest, source: string): string {
  const feedback = request.feedback.instances.map((i) => `- ${i.id}: score ${i.score.toFixed(3)}; ${i.feedback}`).join("\n");
  return [
    `Task: ${request.task.description}`,
    `Metric: ${request.task.metric}. Current visible score: ${request.feedback.score ?? "not evaluated"}.`,
    `Feedback per instance:\n${feedback || "(none)"}`,
    `The solver, ${SOLVER}:\n\`\`\`ts\n${source}\n\`\`\``,
    "Reply with the complete improved file in one ```ts block. Keep the export `solve: SolveFn`; use no imports besides `import type` from \"@evolve/contract\" and relative files.",
  ].join("\n\n");
}

export async function improve(request: ImproveRequest, ctx: ImproveContext): Promise<ImproveReport> {
  if (ctx.llm.available) {
    const source = await ctx.files.read(SOLVER);
    const reply = await ctx.llm.complete({ messages: [{ role: "user", content: prompt(request, source) }], temperature: 0.7 });
    const code = /```(?:ts|typescript)?\n([\s\S]*?)```/.exec(reply.content)?.[1];
    if (code !== undefined && code.trim() !== source.trim()) {
      await ctx.files.write(SOLVER, code);
      return { summary: `llm rewrote ${SOLVER} (parent scored ${request.feedback.score ?? "n/a"})`, changedFiles: [SOLVER] };
    }
    ctx.log("the model's reply had no new code block");
  }
  const files = await ctx.files.list();
  const notes = files.includes("NOTES.md") ? await ctx.files.read("NOTES.md") : "# Notes of the blank meta agent\n";
  await ctx.files.write("NOTES.md", `${notes}- ${request.generation.id}: no change to the solver (parent scored ${request.feedback.score ?? "n/a"})\n`);
  return { summary: "no LLM and no offline strategy yet: noted in NOTES.md", changedFiles: ["NOTES.md"] };
}
