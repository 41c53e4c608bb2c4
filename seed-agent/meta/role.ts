/**
 * The tester role (request.role "tester", a test generation of an arena run): only tester/
 * changes. With a model, one SEARCH/REPLACE round over tester/'s files (no inner loop: a
 * tester's drafts are judged by what its proposals do, so ctx.evaluate is never offered);
 * offline, or when the model gives no applicable edit, the tester's knobs move.
 */
import type { ImproveContext, ImproveReport, ImproveRequest } from "@evolve/contract";
import { applyBlocks, parseBlocks } from "./edits.js";
import { openKnobSearch, TESTER_DIR } from "./knob-search.js";
import { formatMoves } from "./moves.js";
import { writeChanged } from "./offline.js";
import { AGENT_RULES, briefing, cap } from "./prompts.js";
import { search } from "./search-params.js";
import { oneLine, syntaxErrors } from "./syntax.js";

const TESTER_BRIEF = `This generation is a TESTER: tester/index.ts exports \`propose(request, ctx)\`, which returns JSON proposals of new task instances meant to make the current programs fail; the harness's oracle judges each one. Edit only files under tester/. The feedback's instances are the parent tester's proposals: score 1 when one entered the arena suite, 0 when not, with the reason.`;

const FORMAT = `Answer with one line "SUMMARY: <what you change and why>", then SEARCH/REPLACE blocks: a line with the file path, then
<<<<<<< SEARCH
exact current lines (empty to rewrite the whole file)
=======
new lines
>>>>>>> REPLACE`;

type Outcome = { ok: true; report: ImproveReport } | { ok: false; note: string };

async function llmTesterEdit(request: ImproveRequest, ctx: ImproveContext): Promise<Outcome> {
  const files = new Map<string, string>();
  for (const path of await ctx.files.list()) if (path.startsWith(TESTER_DIR)) files.set(path, await ctx.files.read(path));
  const sources = [...files].map(([path, text]) => `## ${path}\n\`\`\`ts\n${text}\n\`\`\``).join("\n\n");
  let reply: string;
  try {
    const response = await ctx.llm.complete({
      messages: [
        { role: "system", content: `${AGENT_RULES}\n${TESTER_BRIEF}` },
        { role: "user", content: [...briefing(request), cap(sources, search.promptCharCap), `Make the tester propose instances the programs fail. ${FORMAT}`].join("\n\n") },
      ],
      temperature: search.temperature,
      maxTokens: search.maxTokens,
    });
    reply = response.content;
  } catch (error) {
    return { ok: false, note: `llm error: ${oneLine(error instanceof Error ? error.message : String(error), 120)}` };
  }
  const { blocks } = parseBlocks(reply);
  const current = new Map(files);
  // Blocks outside tester/ are not applied: a tester generation must leave the rest of the tree alone.
  const results = applyBlocks(current, blocks.filter((b) => b.path.startsWith(TESTER_DIR)));
  const changed: string[] = [];
  for (const [path, text] of current) {
    if (text === files.get(path)) continue;
    if (path.endsWith(".ts") && (await syntaxErrors(path, text)).length > 0) continue;
    await ctx.files.write(path, text);
    changed.push(path);
  }
  if (changed.length === 0) return { ok: false, note: `no applicable tester/ edit (${blocks.length} blocks, ${results.filter((r) => !r.ok).length} failed)` };
  const said = /^\s*SUMMARY:\s*(.+)$/m.exec(reply)?.[1] ?? "edit";
  return { ok: true, report: { summary: oneLine(`llm tester: ${said} [edited ${changed.join(", ")}]`, 600), changedFiles: changed } };
}

/** Rewrites tester/ only: the model's edit when there is one, else moved tester knobs. */
export async function testerImprove(request: ImproveRequest, ctx: ImproveContext): Promise<ImproveReport> {
  let note = "";
  if (ctx.llm.available) {
    const outcome = await llmTesterEdit(request, ctx);
    if (outcome.ok) return outcome.report;
    note = ` (llm gave no applicable edit: ${outcome.note})`;
  }
  const knobs = await openKnobSearch(request, ctx, { scope: TESTER_DIR });
  const moves = knobs.propose();
  const changedFiles = await writeChanged(ctx, knobs);
  if (changedFiles.length > 0) return { summary: `offline: ${formatMoves(moves)}${note}`, changedFiles };
  const target = `${TESTER_DIR}index.ts`;
  const body = knobs.originals.get(target) ?? "";
  await ctx.files.write(target, `${body}${body.endsWith("\n") || body === "" ? "" : "\n"}// offline: no tester knob moved in ${request.generation.id}\n`);
  return { summary: `offline: no changeable tester knob; marked ${target}${note}`, changedFiles: [target] };
}
