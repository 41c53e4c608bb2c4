/**
 * The report page's script. It runs in the reader's browser, never on the host: checked
 * against the DOM library by this folder's tsconfig.json, its types stripped at report time
 * (page-script.ts) and inlined into the page. Rules it keeps: agent-written strings reach
 * the DOM only through textContent or attribute setters, never innerHTML; numbers are
 * checked before they become SVG geometry. It may import types, and the other files of this
 * folder (page-script.ts bundles them): nothing of the host reaches the page.
 */
import type { NodeView, PackingView, PageId, ReportData } from "../report-view.js";
import { DASH, el, num, score, svg } from "./dom.js";
import { drawEpisode } from "./episode-view.js";

const STAGE_MARK: ReadonlyMap<string, string> = new Map([["policy", "P"], ["compile", "C"], ["signature", "S"], ["import", "I"], ["self_modify", "M"], ["extract", "E"]]);
/** The mark on a node that waits for, or got, a person's decision (run policy). */
const APPROVAL_MARK: ReadonlyMap<string, string> = new Map([["pending", "?"], ["approved", "\u2713"], ["rejected", "\u00d7"]]);

/** An element the markup is known to have; a missing one is a bug in render-html.ts. */
function byDomId(id: PageId): HTMLElement {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`report page: no #${id}`);
  return found;
}

function svgById(id: PageId): SVGSVGElement {
  const found = byDomId(id);
  if (!(found instanceof SVGSVGElement)) throw new Error(`report page: #${id} is not an <svg>`);
  return found;
}

/** A node's status in words, as the CLI says it (describeStatus). */
function statusText(n: NodeView): string {
  if (n.valid) return "valid";
  return n.duplicateOf !== null ? `duplicate of ${n.duplicateOf}` : `invalid at ${n.stage}: ${n.code}`;
}

function ms(x: number | undefined): string {
  if (!num(x)) return DASH;
  if (x < 1000) return `${Math.round(x)}ms`;
  if (x < 60000) return `${(x / 1000).toFixed(1)}s`;
  return `${Math.floor(x / 60000)}m${String(Math.round(x / 1000) % 60).padStart(2, "0")}s`;
}

// The data block is the harness's own JSON (agent text inside it is only ever data).
const data = JSON.parse(byDomId("report-data").textContent ?? "null") as ReportData;
const nodes = data.nodes;
const byId = new Map<string, NodeView>();
const kids = new Map<string, string[]>();
for (const n of nodes) {
  byId.set(n.id, n);
  kids.set(n.id, []);
}
const roots: string[] = [];
for (const n of nodes) {
  const siblings = n.parent === null ? undefined : kids.get(n.parent);
  if (siblings !== undefined) siblings.push(n.id);
  else roots.push(n.id);
}
const childrenOf = (id: string): string[] => kids.get(id) ?? [];
const onBest = new Set(data.bestPath);

// Colours span the run's own score range, so small improvements stay visible.
const scoredValues = nodes.flatMap((n) => (n.valid && num(n.visible) ? [n.visible] : []));
let scaleLo = scoredValues.length > 0 ? Math.min(...scoredValues) : 0;
let scaleHi = scoredValues.length > 0 ? Math.max(...scoredValues) : 1;
if (scaleHi - scaleLo < 1e-9) {
  scaleLo = 0;
  scaleHi = 1;
}
byDomId("scale-label").textContent = `${scaleLo.toFixed(3)} → ${scaleHi.toFixed(3)}`;

function colourFor(n: NodeView): string {
  if (!n.valid) return "#ececec";
  if (!num(n.visible)) return "#bbbbbb";
  const s = Math.max(0, Math.min(1, (n.visible - scaleLo) / (scaleHi - scaleLo)));
  return `hsl(${Math.round(120 * s)},65%,${Math.round(55 - 12 * s)}%)`;
}

// ---- header ---------------------------------------------------------------------------
const run = data.run;
byDomId("title").textContent = `evolve report ${DASH} ${run.id}`;
const bestNode = data.best === null ? undefined : byId.get(data.best);
const meta = [
  `task ${run.task || "?"}`,
  `model ${run.model || "?"}`,
  `status ${run.status || "?"}`,
  `seed ${run.seed === null ? "?" : run.seed}`,
  `selection ${run.selection || "?"}`,
  `${nodes.length} generation${nodes.length === 1 ? "" : "s"}`,
  `${nodes.filter((n) => !n.valid && n.duplicateOf === null).length} invalid`,
  `${nodes.filter((n) => n.duplicateOf !== null).length} duplicates`,
  ...(nodes.some((n) => n.approval !== null) ? [`${nodes.filter((n) => n.approval === "pending").length} pending approval`] : []),
  `best ${bestNode === undefined ? DASH : `${bestNode.id} (${score(bestNode.visible)} visible, ${score(bestNode.heldout)} held-out)`}`,
];
if (run.from) meta.push(`branched from ${run.from}`);
const tokensOf = (list: NodeView[], pick: (n: NodeView) => number): number => list.reduce((sum, n) => sum + pick(n), 0);
const solving = nodes.filter((n) => n.solve !== null);
if (solving.length > 0) {
  meta.push(`meta agent ${tokensOf(nodes, (n) => n.tokens.prompt + n.tokens.completion)} tokens`);
  meta.push(`task agent ${tokensOf(solving, (n) => (n.solve?.prompt ?? 0) + (n.solve?.completion ?? 0))} tokens at solve time`);
}
byDomId("meta").textContent = meta.join(" \u00b7 ");
// The approval marks mean something only under a run policy.
byDomId("policy-legend").hidden = !run.policy;
if (data.problems.length > 0) {
  const pr = byDomId("problems");
  pr.appendChild(el("div", `${data.problems.length} unreadable record(s), left out:`));
  for (const p of data.problems.slice(0, 20)) pr.appendChild(el("div", `${p.path}: ${p.reason}`));
}

// ---- tree -----------------------------------------------------------------------------
const DX = 34, DY = 16, PAD = 14, R = 5;
const pos = new Map<string, { row: number; depth: number }>();
let nextRow = 0;
let maxDepth = 0;
// Iterative post-order: leaves take the next row, a parent sits at the mean of its children.
for (const root of roots) {
  const stack = [{ id: root, depth: 0, visited: false }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const ch = childrenOf(top.id);
    if (!top.visited) {
      stack.push({ ...top, visited: true });
      for (let i = ch.length - 1; i >= 0; i--) stack.push({ id: ch[i] ?? "", depth: top.depth + 1, visited: false });
      continue;
    }
    const first = pos.get(ch[0] ?? "");
    const last = pos.get(ch[ch.length - 1] ?? "");
    const row = first === undefined || last === undefined ? nextRow++ : (first.row + last.row) / 2;
    pos.set(top.id, { row, depth: top.depth });
    maxDepth = Math.max(maxDepth, top.depth);
  }
}
const treeSvg = svgById("tree-svg");
const baseW = PAD * 2 + maxDepth * DX + 60;
const baseH = PAD * 2 + Math.max(1, nextRow) * DY;
/** The zoom at which the tree fills its pane's width (a small tree drawn larger, up to 2×; a wide one scrolls). */
function fitZoom(): number {
  const room = byDomId("tree-wrap").clientWidth - 4;
  return room > 0 ? Math.max(1, Math.min(2, room / baseW)) : 1;
}
let zoom = fitZoom();
function applyZoom(): void {
  treeSvg.setAttribute("width", String(Math.round(baseW * zoom)));
  treeSvg.setAttribute("height", String(Math.round(baseH * zoom)));
}
treeSvg.setAttribute("viewBox", `0 0 ${baseW} ${baseH}`);
applyZoom();
// Every node was placed above (each is a root or a child of one); 0 stands in for the impossible miss.
const px = (id: string): number => PAD + (pos.get(id)?.depth ?? 0) * DX;
const py = (id: string): number => PAD + (pos.get(id)?.row ?? 0) * DY;
const edges = svg("g");
const dots = svg("g");
treeSvg.appendChild(edges);
treeSvg.appendChild(dots);
const shapes = new Map<string, SVGElement>();
for (const n of nodes) {
  if (n.parent === null || !byId.has(n.parent)) continue;
  const x0 = px(n.parent), y0 = py(n.parent), x1 = px(n.id), y1 = py(n.id), xm = (x0 + x1) / 2;
  edges.appendChild(
    svg("path", { d: `M${x0} ${y0} C${xm} ${y0} ${xm} ${y1} ${x1} ${y1}`, class: `edge${onBest.has(n.id) && onBest.has(n.parent) ? " best" : ""}` }),
  );
}
for (const n of nodes) {
  const cls = `node${n.valid ? "" : " invalid"}${n.approval === null ? "" : ` ${n.approval}`}${onBest.has(n.id) ? " best" : ""}`;
  const shape = n.valid
    ? svg("circle", { cx: px(n.id), cy: py(n.id), r: R, fill: colourFor(n), class: cls })
    : svg("rect", { x: px(n.id) - R, y: py(n.id) - R, width: 2 * R, height: 2 * R, fill: colourFor(n), class: cls });
  shape.setAttribute("data-id", n.id);
  const title = svg("title");
  title.textContent =
    n.id +
    (n.valid ? `  visible ${score(n.visible)}  held-out ${score(n.heldout)}` : `  ${statusText(n)}`) +
    (n.approval === null ? "" : `  ${n.approval === "pending" ? "pending approval" : n.approval}`);
  shape.appendChild(title);
  dots.appendChild(shape);
  shapes.set(n.id, shape);
  if (!n.valid) {
    const mark = svg("text", { x: px(n.id), y: py(n.id), class: "stage-mark" });
    mark.textContent = n.duplicateOf !== null ? "=" : (STAGE_MARK.get(n.stage ?? "") ?? "?");
    dots.appendChild(mark);
  } else if (n.approval !== null) {
    const mark = svg("text", { x: px(n.id), y: py(n.id), class: "stage-mark" });
    mark.textContent = APPROVAL_MARK.get(n.approval) ?? "?";
    dots.appendChild(mark);
  }
}
treeSvg.addEventListener("click", (ev) => {
  const id = ev.target instanceof Element ? ev.target.getAttribute("data-id") : null;
  if (id !== null && byId.has(id)) select(id);
});
byDomId("zoom-in").addEventListener("click", () => {
  zoom = Math.min(4, zoom * 1.25);
  applyZoom();
});
byDomId("zoom-out").addEventListener("click", () => {
  zoom = Math.max(0.2, zoom / 1.25);
  applyZoom();
});
byDomId("goto").addEventListener("change", (ev) => {
  let v = ev.target instanceof HTMLInputElement ? ev.target.value.trim() : "";
  if (/^\d+$/.test(v)) v = `g${v.padStart(4, "0")}`;
  if (byId.has(v)) select(v);
});
byDomId("goto-best").addEventListener("click", () => {
  if (data.best !== null) select(data.best);
});

// ---- chart ----------------------------------------------------------------------------
/** The chart's frame: its size and the mapping from (generation index, score) to the picture. */
interface ChartFrame {
  W: number;
  H: number;
  L: number;
  B: number;
  T: number;
  RR: number;
  n: number;
  /** The score range drawn: 0 to 1, or wider when a score lies outside. */
  lo: number;
  hi: number;
  X(i: number): number;
  Y(v: number): number;
}

function chartFrame(): ChartFrame {
  const s = data.series;
  const W = 900, H = 220, L = 40, B = 22, T = 8, RR = 10;
  const vals = s.flatMap((p) => [p.best.visible, p.best.heldout, p.median.visible, p.median.heldout, p.own.visible].filter(num));
  const lo = Math.min(0, ...vals);
  const hi = Math.max(1, ...vals);
  const n = Math.max(1, s.length - 1);
  return { W, H, L, B, T, RR, n, lo, hi, X: (i) => L + (W - L - RR) * (i / n), Y: (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo || 1)) };
}

/** The grid, the axes and their labels. */
function drawAxes(host: SVGSVGElement, f: ChartFrame): void {
  const s = data.series;
  for (let k = 0; k <= 4; k++) {
    const v = f.lo + ((f.hi - f.lo) * k) / 4;
    host.appendChild(svg("line", { x1: f.L, x2: f.W - f.RR, y1: f.Y(v), y2: f.Y(v), class: "grid" }));
    const lab = svg("text", { x: 2, y: f.Y(v) + 3 });
    lab.textContent = v.toFixed(2);
    host.appendChild(lab);
  }
  host.appendChild(svg("line", { x1: f.L, x2: f.L, y1: f.T, y2: f.H - f.B, class: "axis" }));
  host.appendChild(svg("line", { x1: f.L, x2: f.W - f.RR, y1: f.H - f.B, y2: f.H - f.B, class: "axis" }));
  const step = Math.max(1, Math.ceil(s.length / 10));
  for (let j = 0; j < s.length; j += step) {
    const t = svg("text", { x: f.X(j) - 10, y: f.H - 6 });
    t.textContent = s[j]?.id ?? "";
    host.appendChild(t);
  }
}

/** One series as a path, broken where it has no value. */
function drawSeries(host: SVGSVGElement, f: ChartFrame, get: (p: (typeof data.series)[number]) => number | null, cls: string): void {
  let d = "";
  let pen = false;
  data.series.forEach((p, i) => {
    const v = get(p);
    if (!num(v)) {
      pen = false;
      return;
    }
    d += `${pen ? "L" : "M"}${f.X(i).toFixed(1)} ${f.Y(v).toFixed(1)} `;
    pen = true;
  });
  if (d) host.appendChild(svg("path", { d, class: `series ${cls}` }));
}

/** Each generation's own visible score as a dot, big enough to see and to click. */
function ownDots(f: ChartFrame): SVGGElement {
  const own = svg("g") as SVGGElement;
  const dotR = Math.max(2.5, Math.min(5, (f.W - f.L - f.RR) / f.n / 3));
  data.series.forEach((p, i) => {
    if (!num(p.own.visible)) return;
    const dot = svg("circle", { cx: f.X(i), cy: f.Y(p.own.visible), r: dotR, class: "own" });
    dot.setAttribute("data-id", p.id);
    const title = svg("title");
    title.textContent = `${p.id}  visible ${score(p.own.visible)}`;
    dot.appendChild(title);
    own.appendChild(dot);
  });
  return own;
}

/** Draws the score chart; returns the function that moves its cursor to a generation. */
function drawChart(): (id: string) => void {
  const s = data.series;
  const host = svgById("chart-svg");
  const f = chartFrame();
  host.setAttribute("viewBox", `0 0 ${f.W} ${f.H}`);
  drawAxes(host, f);
  drawSeries(host, f, (p) => p.median.heldout, "s-median-heldout");
  drawSeries(host, f, (p) => p.best.heldout, "s-best-heldout");
  drawSeries(host, f, (p) => p.median.visible, "s-median-visible");
  drawSeries(host, f, (p) => p.best.visible, "s-best-visible");
  const cursor = svg("line", { x1: -10, x2: -10, y1: f.T, y2: f.H - f.B, class: "cursor" });
  host.appendChild(cursor);
  // Drawn last, so a dot is on top of the lines and gets the click (the whole chart also selects the nearest generation).
  host.appendChild(ownDots(f));
  const index = new Map(s.map((p, i) => [p.id, i]));
  host.addEventListener("click", (ev) => {
    const hit = ev.target instanceof Element ? ev.target.getAttribute("data-id") : null;
    if (hit !== null && byId.has(hit)) return select(hit);
    const rect = host.getBoundingClientRect();
    const x = (ev.clientX - rect.left) * (f.W / rect.width);
    const point = s[Math.round(((x - f.L) / (f.W - f.L - f.RR)) * f.n)];
    if (point !== undefined) select(point.id);
  });
  return (id) => {
    const i = index.get(id);
    if (i === undefined) return;
    cursor.setAttribute("x1", String(f.X(i)));
    cursor.setAttribute("x2", String(f.X(i)));
  };
}
const moveCursor = drawChart();

// ---- details --------------------------------------------------------------------------
const KW = /^(const|let|var|function|return|if|else|for|while|do|switch|case|break|continue|import|export|from|default|async|await|new|class|interface|type|extends|implements|true|false|null|undefined|throw|try|catch|finally|of|in|typeof|instanceof|void|readonly|public|private|static)$/;
const TOKEN = /(\/\/.*$|\/\*.*?\*\/)|("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`(?:[^`\\]|\\.)*`?)|(\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b)|([A-Za-z_$][\w$]*)/g;

/** Appends `text` with comments, strings, numbers and keywords in spans: text nodes only. */
function codeInto(parent: HTMLElement, text: string): void {
  let last = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) {
    if (m[4] !== undefined && !KW.test(m[4])) continue;
    if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)));
    const cls = m[1] !== undefined ? "com" : m[2] !== undefined ? "str" : m[3] !== undefined ? "num" : "kw";
    parent.appendChild(el("span", m[0], cls));
    last = m.index + m[0].length;
  }
  if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
}

const DIFF_LINES = 3000;
function renderDiff(host: HTMLElement, patch: string, all: boolean): void {
  host.textContent = "";
  const lines = patch.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const shown = all ? lines : lines.slice(0, DIFF_LINES);
  const frag = document.createDocumentFragment();
  for (const line of shown) {
    const c = line.charAt(0);
    let div: HTMLDivElement;
    if (/^(diff --git|--- |\+\+\+ |new file mode|deleted file mode)/.test(line)) div = el("div", line, "l meta");
    else if (line.startsWith("@@")) div = el("div", line, "l hunk");
    else {
      const marked = c === "+" || c === "-" || c === " ";
      div = el("div", null, `l ${c === "+" ? "add" : c === "-" ? "del" : "ctx"}`);
      div.appendChild(document.createTextNode(marked ? c : ""));
      codeInto(div, marked ? line.slice(1) : line);
    }
    frag.appendChild(div);
  }
  host.appendChild(frag);
  if (shown.length < lines.length) {
    const more = el("button", `show all ${lines.length} lines`);
    more.addEventListener("click", () => renderDiff(host, patch, true));
    host.appendChild(more);
  }
}

/** A generation's patch, parsed from its own data block only when it is opened. */
function loadDiff(id: string): string | null {
  const block = document.getElementById(`diff-${id}`);
  if (block === null) return null;
  const patch: unknown = JSON.parse(block.textContent ?? "null");
  return typeof patch === "string" ? patch : null;
}

function row(table: HTMLTableElement, key: string, value: string | number | null | undefined): void {
  const tr = el("tr");
  tr.appendChild(el("th", key));
  tr.appendChild(el("td", value === null || value === undefined ? DASH : String(value)));
  table.appendChild(tr);
}

function drawPacking(host: HTMLElement, packing: PackingView | null): void {
  host.textContent = "";
  if (packing === null) {
    host.appendChild(el("div", "no packing recorded for this generation", "empty"));
    return;
  }
  host.appendChild(el("div", `best instance ${packing.instance} (${packing.split}, score ${score(packing.score)}, ${packing.circles.length} circles)`, "muted"));
  const p = svg("svg", { id: "packing-svg", viewBox: "-0.01 -0.01 1.02 1.02", width: 260, height: 260 });
  p.appendChild(svg("rect", { x: 0, y: 0, width: 1, height: 1, fill: "none", stroke: "#999", "stroke-width": 0.004 }));
  for (const [x, y, r] of packing.circles) {
    if (num(x) && num(y) && num(r) && r >= 0) p.appendChild(svg("circle", { cx: x, cy: 1 - y, r }));
  }
  host.appendChild(p);
}

// Scrolls the tree pane (only the pane, never the page) so the node is in view.
function revealInTree(id: string): void {
  const wrap = byDomId("tree-wrap");
  const y = py(id) * zoom, x = px(id) * zoom;
  if (y < wrap.scrollTop + 20 || y > wrap.scrollTop + wrap.clientHeight - 20) wrap.scrollTop = Math.max(0, y - wrap.clientHeight / 2);
  if (x < wrap.scrollLeft + 20 || x > wrap.scrollLeft + wrap.clientWidth - 20) wrap.scrollLeft = Math.max(0, x - wrap.clientWidth / 2);
}

function versusParent(n: NodeView): string {
  const parent = n.parent === null ? undefined : byId.get(n.parent);
  if (parent === undefined || !num(n.visible) || !num(parent.visible)) return "";
  const d = n.visible - parent.visible;
  return `  (${d >= 0 ? "+" : ""}${d.toFixed(4)} vs parent)`;
}

let selected: string | null = null;
function select(id: string): void {
  const n = byId.get(id);
  if (n === undefined) return;
  if (selected !== null) shapes.get(selected)?.classList.remove("selected");
  selected = id;
  shapes.get(id)?.classList.add("selected");
  revealInTree(id);
  moveCursor(id);
  try {
    if (location.hash !== `#${id}`) history.replaceState(null, "", `#${id}`);
  } catch {
    // Some file:// setups refuse; the hash is a nicety.
  }
  drawDetails(n);
  const packHost = byDomId("packing");
  if (data.run.task === "circle-packing" || n.packing !== null) drawPacking(packHost, n.packing);
  else packHost.textContent = "";
  drawEpisode(byDomId("episode"), n.episode, n.id);
  drawNodeDiff(n);
}

/** The panel of one generation: its status, summary, the table of what it is, its failing instances. */
function drawDetails(n: NodeView): void {
  const d = byDomId("details");
  d.textContent = "";
  const head = el("div");
  head.appendChild(el("strong", `${n.id}  `));
  head.appendChild(el("span", statusText(n), n.valid ? "status-valid" : "status-invalid"));
  head.setAttribute("id", "detail-head");
  d.appendChild(head);
  if (n.summary !== null) d.appendChild(el("div", n.summary, "muted"));
  d.appendChild(detailTable(n));
  if (n.failures.length > 0) {
    d.appendChild(el("h3", "failing instances"));
    const ul = el("ul");
    for (const f of n.failures) ul.appendChild(el("li", `${f.id} (${f.split}): ${f.reason}`));
    d.appendChild(ul);
  }
}

function detailTable(n: NodeView): HTMLElement {
  const t = el("table");
  row(t, "parent", n.parent === null ? "none (root)" : n.parent);
  row(t, "depth / children", `${n.depth} / ${n.children}`);
  row(t, "visible", score(n.visible) + versusParent(n));
  row(t, "held-out", score(n.heldout));
  row(t, "stage 1", score(n.stage1));
  if (n.evaluationNote !== null) row(t, "evaluation", n.evaluationNote);
  if (n.duplicateOf !== null) row(t, "validation", `not run: the same tree as ${n.duplicateOf}`);
  else if (!n.valid) row(t, "validation", `${n.stage}: ${n.code}${n.where ? ` at ${n.where}` : ""}${n.message ? ` ${DASH} ${n.message}` : ""}`);
  else row(t, "validation", "passed");
  if (n.approvalText !== null) row(t, "approval", n.approvalText);
  row(t, n.solve === null ? "cost" : "meta agent", `${n.costUsd === null ? "unknown" : `$${n.costUsd.toFixed(4)}`}  \u00b7  tokens ${n.tokens.prompt} + ${n.tokens.completion}`);
  if (n.solve !== null) {
    const s = n.solve;
    row(t, "task agent", `${s.costUsd === null ? "unknown" : `$${s.costUsd.toFixed(4)}`}  \u00b7  tokens ${s.prompt} + ${s.completion} in ${s.calls} calls (solve time)`);
  }
  row(t, "model", n.model === null ? "offline" : n.model);
  const timings = Object.entries(n.timings).map(([k, v]) => `${k} ${ms(v)}`).join(", ");
  row(t, "timings", timings || DASH);
  for (const s of n.stages) row(t, `eval ${s.label}`, `${score(s.score)}  ${s.instances} instance${s.instances === 1 ? "" : "s"}, ${s.failed} failed, ${ms(s.durationMs)}`);
  row(t, "changed", n.changed.length > 0 ? n.changed.map((f) => `${f.path} (${f.change} +${f.additions} \u2212${f.deletions})`).join(", ") : "nothing");
  row(t, "created", n.createdAt);
  return t;
}

/** The generation's diff against its parent: embedded, empty, or where to get it. */
function drawNodeDiff(n: NodeView): void {
  const diffHost = byDomId("diff");
  byDomId("diff-label").textContent = `diff of ${n.id} against ${n.parent === null ? "the empty tree" : n.parent}`;
  const patch = n.diff === "embedded" ? loadDiff(n.id) : null;
  diffHost.textContent = "";
  if (patch === "") diffHost.appendChild(el("div", "empty diff", "empty"));
  else if (patch !== null) renderDiff(diffHost, patch, false);
  else diffHost.appendChild(el("div", n.diff === "omitted" ? `diff left out to keep the report small: evolve diff <run> ${n.id}` : "patch.diff unreadable", "empty"));
}

const start = location.hash.replace(/^#/, "");
const first = byId.has(start) ? start : (data.best ?? nodes[0]?.id);
if (first !== undefined) select(first);
document.body.setAttribute("data-ready", "1");
