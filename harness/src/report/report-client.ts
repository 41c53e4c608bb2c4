/**
 * The report page's script, inlined as text (it runs in the reader's browser, never on the
 * host). Rules it keeps: agent-written strings reach the DOM only through textContent or
 * attribute setters, never innerHTML; numbers are checked before they become SVG geometry.
 * It is plain ES5-ish JavaScript without template literals, so it can live in this string.
 */
export const REPORT_JS = String.raw`
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var nodes = data.nodes;
  var byId = {};
  var kids = {};
  nodes.forEach(function (n) { byId[n.id] = n; kids[n.id] = []; });
  var roots = [];
  nodes.forEach(function (n) {
    if (n.parent !== null && byId[n.parent]) kids[n.parent].push(n.id); else roots.push(n.id);
  });
  var onBest = {};
  data.bestPath.forEach(function (id) { onBest[id] = true; });
  var STAGE_MARK = { policy: "P", compile: "C", signature: "S", "import": "I", self_modify: "M", extract: "E" };

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, String(attrs[k]));
    return e;
  }
  function num(x) { return typeof x === "number" && isFinite(x); }
  function score(x) { return num(x) ? x.toFixed(4) : "\u2014"; }
  function ms(x) {
    if (!num(x)) return "\u2014";
    if (x < 1000) return Math.round(x) + "ms";
    if (x < 60000) return (x / 1000).toFixed(1) + "s";
    return Math.floor(x / 60000) + "m" + String(Math.round(x / 1000) % 60).padStart(2, "0") + "s";
  }
  // Colours span the run's own score range, so small improvements stay visible.
  var scored = nodes.filter(function (n) { return n.valid && num(n.visible); }).map(function (n) { return n.visible; });
  var scaleLo = scored.length ? Math.min.apply(null, scored) : 0, scaleHi = scored.length ? Math.max.apply(null, scored) : 1;
  if (scaleHi - scaleLo < 1e-9) { scaleLo = 0; scaleHi = 1; }
  document.getElementById("scale-label").textContent = scaleLo.toFixed(3) + " → " + scaleHi.toFixed(3);
  function colourFor(n) {
    if (!n.valid) return "#ececec";
    if (!num(n.visible)) return "#bbbbbb";
    var s = Math.max(0, Math.min(1, (n.visible - scaleLo) / (scaleHi - scaleLo)));
    return "hsl(" + Math.round(120 * s) + ",65%," + Math.round(55 - 12 * s) + "%)";
  }

  // ---- header ---------------------------------------------------------------------------
  var r = data.run;
  document.getElementById("title").textContent = "evolve report \u2014 " + r.id;
  var meta = [
    "task " + (r.task || "?"), "model " + (r.model || "?"), "status " + (r.status || "?"),
    "seed " + (r.seed === null ? "?" : r.seed), "selection " + (r.selection || "?"),
    nodes.length + " generations", nodes.filter(function (n) { return !n.valid; }).length + " invalid",
    "best " + (data.best === null ? "\u2014" : data.best + " (" + score(byId[data.best].visible) + " visible, " + score(byId[data.best].heldout) + " held-out)")
  ];
  if (r.from) meta.push("branched from " + r.from);
  document.getElementById("meta").textContent = meta.join(" \u00b7 ");
  if (data.problems.length > 0) {
    var pr = document.getElementById("problems");
    pr.appendChild(el("div", data.problems.length + " unreadable record(s), left out:"));
    data.problems.slice(0, 20).forEach(function (p) { pr.appendChild(el("div", p.path + ": " + p.reason)); });
  }

  // ---- tree -----------------------------------------------------------------------------
  var DX = 34, DY = 16, PAD = 14, R = 5;
  var pos = {};
  var nextRow = 0, maxDepth = 0;
  // Iterative post-order: leaves take the next row, a parent sits at the mean of its children.
  roots.forEach(function (root) {
    var stack = [{ id: root, depth: 0, visited: false }];
    while (stack.length) {
      var top = stack.pop();
      if (!top.visited) {
        stack.push({ id: top.id, depth: top.depth, visited: true });
        var ch = kids[top.id];
        for (var i = ch.length - 1; i >= 0; i--) stack.push({ id: ch[i], depth: top.depth + 1, visited: false });
      } else {
        var c = kids[top.id];
        var row;
        if (c.length === 0) row = nextRow++;
        else row = (pos[c[0]].row + pos[c[c.length - 1]].row) / 2;
        pos[top.id] = { row: row, depth: top.depth };
        if (top.depth > maxDepth) maxDepth = top.depth;
      }
    }
  });
  var treeSvg = document.getElementById("tree-svg");
  var zoom = 1;
  var baseW = PAD * 2 + maxDepth * DX + 60, baseH = PAD * 2 + Math.max(1, nextRow) * DY;
  function applyZoom() {
    treeSvg.setAttribute("width", String(Math.round(baseW * zoom)));
    treeSvg.setAttribute("height", String(Math.round(baseH * zoom)));
  }
  treeSvg.setAttribute("viewBox", "0 0 " + baseW + " " + baseH);
  applyZoom();
  function px(id) { return PAD + pos[id].depth * DX; }
  function py(id) { return PAD + pos[id].row * DY; }
  var edges = svg("g", {});
  var dots = svg("g", {});
  treeSvg.appendChild(edges);
  treeSvg.appendChild(dots);
  var shapes = {};
  nodes.forEach(function (n) {
    if (n.parent !== null && byId[n.parent]) {
      var x0 = px(n.parent), y0 = py(n.parent), x1 = px(n.id), y1 = py(n.id), xm = (x0 + x1) / 2;
      edges.appendChild(svg("path", {
        d: "M" + x0 + " " + y0 + " C" + xm + " " + y0 + " " + xm + " " + y1 + " " + x1 + " " + y1,
        "class": "edge" + (onBest[n.id] && onBest[n.parent] ? " best" : "")
      }));
    }
  });
  nodes.forEach(function (n) {
    var cls = "node" + (n.valid ? "" : " invalid") + (onBest[n.id] ? " best" : "");
    var shape;
    if (n.valid) shape = svg("circle", { cx: px(n.id), cy: py(n.id), r: R, fill: colourFor(n), "class": cls });
    else shape = svg("rect", { x: px(n.id) - R, y: py(n.id) - R, width: 2 * R, height: 2 * R, fill: colourFor(n), "class": cls });
    shape.setAttribute("data-id", n.id);
    var title = svg("title", {});
    title.textContent = n.id + (n.valid ? "  visible " + score(n.visible) + "  held-out " + score(n.heldout) : "  invalid at " + n.stage + ": " + n.code);
    shape.appendChild(title);
    dots.appendChild(shape);
    shapes[n.id] = shape;
    if (!n.valid) {
      var mark = svg("text", { x: px(n.id), y: py(n.id), "class": "stage-mark" });
      mark.textContent = STAGE_MARK[n.stage] || "?";
      dots.appendChild(mark);
    }
  });
  treeSvg.addEventListener("click", function (ev) {
    var t = ev.target;
    var id = t && t.getAttribute ? t.getAttribute("data-id") : null;
    if (id && byId[id]) select(id);
  });
  document.getElementById("zoom-in").addEventListener("click", function () { zoom = Math.min(4, zoom * 1.25); applyZoom(); });
  document.getElementById("zoom-out").addEventListener("click", function () { zoom = Math.max(0.2, zoom / 1.25); applyZoom(); });
  document.getElementById("goto").addEventListener("change", function (ev) {
    var v = String(ev.target.value).trim();
    if (/^\d+$/.test(v)) v = "g" + v.padStart(4, "0");
    if (byId[v]) select(v);
  });
  document.getElementById("goto-best").addEventListener("click", function () { if (data.best) select(data.best); });

  // ---- chart ----------------------------------------------------------------------------
  var moveCursor = function () {};
  (function chart() {
    var s = data.series;
    var host = document.getElementById("chart-svg");
    var W = 900, H = 220, L = 40, B = 22, T = 8, RR = 10;
    host.setAttribute("viewBox", "0 0 " + W + " " + H);
    var vals = [];
    s.forEach(function (p) {
      [p.best.visible, p.best.heldout, p.median.visible, p.median.heldout, p.own.visible].forEach(function (v) { if (num(v)) vals.push(v); });
    });
    var lo = Math.min(0, Math.min.apply(null, vals.length ? vals : [0])), hi = Math.max(1, Math.max.apply(null, vals.length ? vals : [1]));
    var n = Math.max(1, s.length - 1);
    function X(i) { return L + (W - L - RR) * (i / n); }
    function Y(v) { return T + (H - T - B) * (1 - (v - lo) / (hi - lo || 1)); }
    for (var k = 0; k <= 4; k++) {
      var v = lo + (hi - lo) * k / 4;
      host.appendChild(svg("line", { x1: L, x2: W - RR, y1: Y(v), y2: Y(v), "class": "grid" }));
      var lab = svg("text", { x: 2, y: Y(v) + 3 }); lab.textContent = v.toFixed(2); host.appendChild(lab);
    }
    host.appendChild(svg("line", { x1: L, x2: L, y1: T, y2: H - B, "class": "axis" }));
    host.appendChild(svg("line", { x1: L, x2: W - RR, y1: H - B, y2: H - B, "class": "axis" }));
    var step = Math.max(1, Math.ceil(s.length / 10));
    for (var j = 0; j < s.length; j += step) {
      var t = svg("text", { x: X(j) - 10, y: H - 6 }); t.textContent = s[j].id; host.appendChild(t);
    }
    var own = svg("g", {});
    s.forEach(function (p, i) { if (num(p.own.visible)) own.appendChild(svg("circle", { cx: X(i), cy: Y(p.own.visible), r: 1.6, "class": "own" })); });
    host.appendChild(own);
    function line(get, cls) {
      var d = "", pen = false;
      s.forEach(function (p, i) {
        var v = get(p);
        if (!num(v)) { pen = false; return; }
        d += (pen ? "L" : "M") + X(i).toFixed(1) + " " + Y(v).toFixed(1) + " ";
        pen = true;
      });
      if (d) host.appendChild(svg("path", { d: d, "class": "series " + cls }));
    }
    line(function (p) { return p.median.heldout; }, "s-median-heldout");
    line(function (p) { return p.best.heldout; }, "s-best-heldout");
    line(function (p) { return p.median.visible; }, "s-median-visible");
    line(function (p) { return p.best.visible; }, "s-best-visible");
    var cursor = svg("line", { x1: -10, x2: -10, y1: T, y2: H - B, "class": "cursor" });
    host.appendChild(cursor);
    var index = {};
    s.forEach(function (p, i) { index[p.id] = i; });
    moveCursor = function (id) {
      if (index[id] === undefined) return;
      cursor.setAttribute("x1", String(X(index[id]))); cursor.setAttribute("x2", String(X(index[id])));
    };
    host.addEventListener("click", function (ev) {
      var rect = host.getBoundingClientRect();
      var x = (ev.clientX - rect.left) * (W / rect.width);
      var i = Math.round((x - L) / (W - L - RR) * n);
      if (s[i]) select(s[i].id);
    });
  })();

  // ---- details --------------------------------------------------------------------------
  var KW = /^(const|let|var|function|return|if|else|for|while|do|switch|case|break|continue|import|export|from|default|async|await|new|class|interface|type|extends|implements|true|false|null|undefined|throw|try|catch|finally|of|in|typeof|instanceof|void|readonly|public|private|static)$/;
  var TOKEN = /(\/\/.*$|\/\*.*?\*\/)|("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|\x60(?:[^\x60\\]|\\.)*\x60?)|(\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b)|([A-Za-z_$][\w$]*)/g;
  function codeInto(parent, text) {
    var last = 0, m;
    TOKEN.lastIndex = 0;
    while ((m = TOKEN.exec(text)) !== null) {
      if (m[4] !== undefined && !KW.test(m[4])) continue;
      if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)));
      var cls = m[1] !== undefined ? "com" : m[2] !== undefined ? "str" : m[3] !== undefined ? "num" : "kw";
      parent.appendChild(el("span", m[0], cls));
      last = m.index + m[0].length;
    }
    if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
  }
  var DIFF_LINES = 3000;
  function renderDiff(host, patch, all) {
    host.textContent = "";
    var lines = patch.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    var shown = all ? lines : lines.slice(0, DIFF_LINES);
    var frag = document.createDocumentFragment();
    shown.forEach(function (line) {
      var c = line.charAt(0), div;
      if (/^(diff --git|--- |\+\+\+ |new file mode|deleted file mode)/.test(line)) div = el("div", line, "l meta");
      else if (line.indexOf("@@") === 0) div = el("div", line, "l hunk");
      else {
        div = el("div", null, "l " + (c === "+" ? "add" : c === "-" ? "del" : "ctx"));
        div.appendChild(document.createTextNode(c === "+" || c === "-" || c === " " ? c : ""));
        codeInto(div, c === "+" || c === "-" || c === " " ? line.slice(1) : line);
      }
      frag.appendChild(div);
    });
    host.appendChild(frag);
    if (shown.length < lines.length) {
      var more = el("button", "show all " + lines.length + " lines");
      more.addEventListener("click", function () { renderDiff(host, patch, true); });
      host.appendChild(more);
    }
  }
  function loadDiff(id) {
    var block = document.getElementById("diff-" + id);
    return block ? JSON.parse(block.textContent) : null;
  }
  function row(table, key, value) {
    var tr = el("tr");
    tr.appendChild(el("th", key));
    var td = el("td");
    if (value instanceof Node) td.appendChild(value); else td.textContent = value === null || value === undefined ? "\u2014" : String(value);
    tr.appendChild(td);
    table.appendChild(tr);
  }
  function drawPacking(host, packing) {
    host.textContent = "";
    if (!packing) { host.appendChild(el("div", "no packing recorded for this generation", "empty")); return; }
    host.appendChild(el("div", "best instance " + packing.instance + " (" + packing.split + ", score " + score(packing.score) + ", " + packing.circles.length + " circles)", "muted"));
    var p = svg("svg", { id: "packing-svg", viewBox: "-0.01 -0.01 1.02 1.02", width: 260, height: 260 });
    p.appendChild(svg("rect", { x: 0, y: 0, width: 1, height: 1, fill: "none", stroke: "#999", "stroke-width": 0.004 }));
    packing.circles.forEach(function (c) {
      if (num(c[0]) && num(c[1]) && num(c[2]) && c[2] >= 0) p.appendChild(svg("circle", { cx: c[0], cy: 1 - c[1], r: c[2] }));
    });
    host.appendChild(p);
  }
  // Scrolls the tree pane (only the pane, never the page) so the node is in view.
  function revealInTree(id) {
    var wrap = document.getElementById("tree-wrap");
    var y = py(id) * zoom, x = px(id) * zoom;
    if (y < wrap.scrollTop + 20 || y > wrap.scrollTop + wrap.clientHeight - 20) wrap.scrollTop = Math.max(0, y - wrap.clientHeight / 2);
    if (x < wrap.scrollLeft + 20 || x > wrap.scrollLeft + wrap.clientWidth - 20) wrap.scrollLeft = Math.max(0, x - wrap.clientWidth / 2);
  }
  var selected = null;
  function select(id) {
    var n = byId[id];
    if (!n) return;
    if (selected && shapes[selected]) shapes[selected].classList.remove("selected");
    selected = id;
    shapes[id].classList.add("selected");
    revealInTree(id);
    moveCursor(id);
    try { if (location.hash !== "#" + id) history.replaceState(null, "", "#" + id); } catch (e) { /* some file:// setups refuse; the hash is a nicety */ }
    var d = document.getElementById("details");
    d.textContent = "";
    var head = el("div");
    head.appendChild(el("strong", n.id + "  "));
    head.appendChild(el("span", n.valid ? "valid" : "invalid at " + n.stage + " (" + n.code + ")", n.valid ? "status-valid" : "status-invalid"));
    head.setAttribute("id", "detail-head");
    d.appendChild(head);
    if (n.summary !== null) d.appendChild(el("div", n.summary, "muted"));
    var t = el("table");
    row(t, "parent", n.parent === null ? "none (root)" : n.parent);
    row(t, "depth / children", n.depth + " / " + n.children);
    row(t, "visible", score(n.visible) + (n.parent && byId[n.parent] && num(n.visible) && num(byId[n.parent].visible) ? "  (" + (n.visible - byId[n.parent].visible >= 0 ? "+" : "") + (n.visible - byId[n.parent].visible).toFixed(4) + " vs parent)" : ""));
    row(t, "held-out", score(n.heldout));
    row(t, "stage 1", score(n.stage1));
    if (!n.valid) row(t, "validation", n.stage + ": " + n.code + (n.where ? " at " + n.where : "") + (n.message ? " \u2014 " + n.message : ""));
    else row(t, "validation", "passed");
    row(t, "cost", (n.costUsd === null ? "unknown" : "$" + n.costUsd.toFixed(4)) + "  \u00b7  tokens " + n.tokens.prompt + " + " + n.tokens.completion);
    row(t, "model", n.model === null ? "offline" : n.model);
    var tim = Object.keys(n.timings).map(function (k) { return k + " " + ms(n.timings[k]); }).join(", ");
    row(t, "timings", tim || "\u2014");
    n.stages.forEach(function (s) { row(t, "eval " + s.stage, score(s.score) + "  " + s.instances + " instances, " + s.failed + " failed, " + ms(s.durationMs)); });
    row(t, "changed", n.changed.length ? n.changed.map(function (f) { return f.path + " (" + f.change + " +" + f.additions + " \u2212" + f.deletions + ")"; }).join(", ") : "nothing");
    row(t, "created", n.createdAt);
    d.appendChild(t);
    if (n.failures.length) {
      d.appendChild(el("h3", "failing instances"));
      var ul = el("ul");
      n.failures.forEach(function (f) { ul.appendChild(el("li", f.id + " (" + f.split + "): " + f.reason)); });
      d.appendChild(ul);
    }
    var packHost = document.getElementById("packing");
    if (data.run.task === "circle-packing" || n.packing) drawPacking(packHost, n.packing); else packHost.textContent = "";
    var diffHost = document.getElementById("diff");
    var label = document.getElementById("diff-label");
    label.textContent = "diff of " + n.id + " against " + (n.parent === null ? "the empty tree" : n.parent);
    if (n.diff === "embedded") {
      var patch = loadDiff(n.id);
      if (patch === "") { diffHost.textContent = ""; diffHost.appendChild(el("div", "empty diff", "empty")); }
      else renderDiff(diffHost, patch, false);
    } else {
      diffHost.textContent = "";
      diffHost.appendChild(el("div", n.diff === "omitted" ? "diff left out to keep the report small: evolve diff <run> " + n.id : "patch.diff unreadable", "empty"));
    }
  }
  var start = location.hash.replace(/^#/, "");
  select(byId[start] ? start : (data.best || (nodes[0] && nodes[0].id)));
  document.body.setAttribute("data-ready", "1");
})();
`;
