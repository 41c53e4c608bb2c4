/**
 * The report as one self-contained HTML file: inline CSS and script, data as JSON blocks,
 * and a Content-Security-Policy that forbids every network fetch and allows only the
 * page's own script and style (by hash), so even an escaping bug could not run injected code.
 */
import { createHash } from "node:crypto";
import type { ReportData } from "./report-view.js";
import { REPORT_CSS } from "./report-style.js";

/** JSON safe inside a <script> data block: no "<" (so no "</script>" or "<!--"), no raw line separators. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function sha256Source(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** The page's Content-Security-Policy: nothing from the network, only this page's own script (`script`, see pageScript) and style. */
export function contentSecurityPolicy(script: string): string {
  return [
    "default-src 'none'",
    `script-src ${sha256Source(script)}`,
    `style-src ${sha256Source(REPORT_CSS)}`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** The whole page around `script` (pageScript()). `diffs` are embedded one block per generation and parsed only when opened. */
export function renderReportHtml(data: ReportData, diffs: ReadonlyMap<string, string>, script: string, arenaHtml = ""): string {
  const diffBlocks: string[] = [];
  for (const [id, patch] of diffs) {
    // Ids are schema-checked generation ids; escaped anyway since this is an attribute.
    diffBlocks.push(`<script type="application/json" id="diff-${escapeHtml(id)}">${jsonForScript(patch)}</script>`);
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(script))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>evolve report: ${escapeHtml(data.run.id)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header><h1 id="title">evolve report</h1><div class="meta" id="meta"></div><div class="problems" id="problems"></div></header>
<main>
<section id="chart-section"><h2>Score over generations</h2>
<div class="legend"><span><i class="key k-vis"></i>best visible</span><span><i class="key dash k-vis"></i>median visible</span><span><i class="key k-held"></i>held-out of the visible-best</span><span><i class="key dash k-held"></i>median held-out</span><span>dots: each generation's visible score (click to open)</span></div>
<svg id="chart-svg" width="100%" height="220" role="img" aria-label="best and median score per generation"></svg>
</section>
${arenaHtml}
<section id="tree-section"><h2>Archive tree</h2>
<div class="toolbar"><button id="zoom-out" type="button">−</button><button id="zoom-in" type="button">+</button><button id="goto-best" type="button">best</button><label>go to <input id="goto" placeholder="g0007"></label></div>
<div class="legend"><span>score</span><span><i class="grad"></i> <span id="scale-label">0 → 1</span></span><span>■ invalid (P policy, C compile, S signature, I import, M self-modify, E extract)</span><span>orange: best lineage</span><span id="policy-legend" hidden>run policy: ? pending approval (dashed blue), ✓ approved, × rejected (faded)</span></div>
<div id="tree-wrap"><svg id="tree-svg" role="img" aria-label="archive tree"></svg></div>
</section>
<section id="detail-section"><h2>Generation</h2>
<div id="details"></div>
<div id="packing"></div>
<div id="episode"></div>
<h2 id="diff-label">diff</h2>
<div id="diff"></div>
</section>
</main>
<script type="application/json" id="report-data">${jsonForScript(data)}</script>
${diffBlocks.join("\n")}
<script>${script}</script>
</body>
</html>
`;
}
