/** The report's stylesheet (inlined; the page loads nothing). */
export const REPORT_CSS = `
:root { --bg:#fafafa; --fg:#1d1d1f; --muted:#6b6b73; --line:#d8d8de; --panel:#fff; --accent:#d97706; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); }
header { padding: 10px 16px; border-bottom: 1px solid var(--line); background: var(--panel); }
header h1 { font-size: 16px; margin: 0 0 4px; }
header .meta { color: var(--muted); }
main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.1fr); gap: 12px; padding: 12px 16px; }
@media (max-width: 860px) { main { grid-template-columns: minmax(0, 1fr); padding: 8px; } }
[hidden] { display: none !important; }
section { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; min-width: 0; }
section h2 { font-size: 13px; margin: 0 0 6px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
#chart-section { grid-column: 1 / -1; }
#tree-wrap { overflow: auto; max-height: 72vh; border-top: 1px solid var(--line); }
#tree-svg .edge { stroke: #b8b8c0; stroke-width: 1; fill: none; }
#tree-svg .edge.best { stroke: var(--accent); stroke-width: 2.5; }
#tree-svg .node { cursor: pointer; stroke: #333; stroke-width: .6; }
#tree-svg .node.best { stroke: var(--accent); stroke-width: 2.5; }
#tree-svg .node.selected { stroke: #0057ff; stroke-width: 3; }
#tree-svg .node.invalid { fill: #ececec; stroke: #888; }
#tree-svg .node.pending { stroke: #0057ff; stroke-width: 1.6; stroke-dasharray: 2 1.5; }
#tree-svg .node.rejected { fill-opacity: .3; stroke: #b42318; stroke-width: 1.4; }
#tree-svg .node.approved { stroke: #1a7f37; stroke-width: 1.6; }
#tree-svg .stage-mark { font: bold 8px monospace; fill: #444; pointer-events: none; text-anchor: middle; dominant-baseline: central; }
.toolbar { display: flex; gap: 6px; align-items: center; margin-bottom: 6px; flex-wrap: wrap; }
.toolbar input { width: 90px; }
.legend span { display: inline-block; margin-right: 10px; color: var(--muted); }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 50%; vertical-align: middle; margin-right: 3px; border: 1px solid #555; }
.grad { display: inline-block; width: 90px; height: 10px; vertical-align: middle; background: linear-gradient(90deg, hsl(0,70%,55%), hsl(60,70%,55%), hsl(120,60%,42%)); }
table { border-collapse: collapse; }
td, th { padding: 2px 8px 2px 0; text-align: left; vertical-align: top; }
th { color: var(--muted); font-weight: 500; }
.status-valid { color: #1a7f37; font-weight: 600; }
.status-invalid { color: #b42318; font-weight: 600; }
.muted { color: var(--muted); }
.problems { color: #b42318; }
#diff { font: 12px/1.35 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre; overflow: auto; max-height: 60vh; border: 1px solid var(--line); background: #fcfcfd; }
#arena-section pre { font: 12px/1.35 ui-monospace, SFMono-Regular, Menlo, monospace; overflow-x: auto; }
#diff .l { padding: 0 6px; min-height: 1.35em; }
#diff .add { background: #e6ffec; }
#diff .del { background: #ffebe9; }
#diff .hunk { background: #ddf4ff; color: #0550ae; }
#diff .meta { color: #6e7781; font-weight: 600; }
#diff .kw { color: #cf222e; }
#diff .str { color: #0a3069; }
#diff .num { color: #0550ae; }
#diff .com { color: #6e7781; font-style: italic; }
#chart-svg .axis { stroke: #999; stroke-width: 1; }
#chart-svg .grid { stroke: #eee; stroke-width: 1; }
#chart-svg .series { fill: none; stroke-width: 1.8; }
#chart-svg .s-best-visible { stroke: #1a7f37; }
#chart-svg .s-median-visible { stroke: #1a7f37; stroke-dasharray: 4 3; }
#chart-svg .s-best-heldout { stroke: #8250df; }
#chart-svg .s-median-heldout { stroke: #8250df; stroke-dasharray: 4 3; }
#chart-svg .own { fill: #1a7f37; opacity: .45; cursor: pointer; }
#chart-svg .own:hover { opacity: .9; }
#chart-svg text { font-size: 10px; fill: #555; }
#chart-svg .cursor { stroke: #0057ff; stroke-width: 1; }
.key { display: inline-block; width: 18px; height: 0; border-top: 2px solid; vertical-align: middle; margin-right: 3px; }
.key.dash { border-top-style: dashed; }
.k-vis { border-color: #1a7f37; } .k-held { border-color: #8250df; }
#packing-svg { border: 1px solid var(--line); background: #fff; max-width: 100%; height: auto; }
#details table { max-width: 100%; }
#details td { overflow-wrap: anywhere; }
.meta { overflow-wrap: anywhere; }
#packing-svg circle { fill: rgba(37, 99, 235, .25); stroke: #1d4ed8; stroke-width: .003; }
#episode-svg { border: 1px solid var(--line); max-width: 100%; height: auto; display: block; margin: 4px 0; }
#episode-svg .episode-bg { fill: #f4f4f5; }
#episode { margin-top: 6px; }
button { font: inherit; padding: 1px 8px; }
.empty { color: var(--muted); font-style: italic; }
`;
