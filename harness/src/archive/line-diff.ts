/**
 * A Myers O(ND) line diff. Lines keep their "\n" so a last line without one differs
 * from the same text with one, exactly as in unified diffs.
 */

/** One step of an edit script: keep, delete old line `a`, or insert new line `b`. */
export type Edit =
  | { readonly op: "equal"; readonly a: number; readonly b: number }
  | { readonly op: "delete"; readonly a: number }
  | { readonly op: "insert"; readonly b: number };

/** Past this many differences the diff stops searching for a minimal script. */
const MAX_EDIT_DISTANCE = 4000;

/**
 * Line comparisons one diff of a whole tree may spend (about a second of CPU). Agent trees
 * are hostile: repetitive files can make Myers walk long snakes on every diagonal, so past
 * this budget the remaining files fall back to "replace all" (still a correct patch).
 */
export const MAX_DIFF_WORK = 200_000_000;

/** What is left of a diff's work budget; shared by the files of one tree. */
export interface DiffBudget {
  left: number;
}

/** Splits text into lines, each with its "\n" except possibly the last. */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const j = text.indexOf("\n", i);
    if (j < 0) {
      out.push(text.slice(i));
      break;
    }
    out.push(text.slice(i, j + 1));
    i = j + 1;
  }
  return out;
}

/** An edit script turning `a` into `b`; minimal unless the distance exceeds MAX_EDIT_DISTANCE or the budget runs out. */
export function diffLines(a: readonly string[], b: readonly string[], budget: DiffBudget = { left: MAX_DIFF_WORK }): Edit[] {
  // Compare small integers rather than strings in the inner loop.
  const ids = new Map<string, number>();
  const intern = (s: string): number => {
    let id = ids.get(s);
    if (id === undefined) ids.set(s, (id = ids.size));
    return id;
  };
  const A = Int32Array.from(a, intern);
  const B = Int32Array.from(b, intern);

  let prefix = 0;
  while (prefix < A.length && prefix < B.length && A[prefix] === B[prefix]) prefix++;
  let suffix = 0;
  while (suffix < A.length - prefix && suffix < B.length - prefix && A[A.length - 1 - suffix] === B[B.length - 1 - suffix]) suffix++;

  const edits: Edit[] = [];
  for (let i = 0; i < prefix; i++) edits.push({ op: "equal", a: i, b: i });
  const middle = myers(A.subarray(prefix, A.length - suffix), B.subarray(prefix, B.length - suffix), budget);
  for (const e of middle) {
    switch (e.op) {
      case "equal":
        edits.push({ op: "equal", a: e.a + prefix, b: e.b + prefix });
        break;
      case "delete":
        edits.push({ op: "delete", a: e.a + prefix });
        break;
      case "insert":
        edits.push({ op: "insert", b: e.b + prefix });
        break;
    }
  }
  for (let i = 0; i < suffix; i++) edits.push({ op: "equal", a: A.length - suffix + i, b: B.length - suffix + i });
  return edits;
}

function myers(A: Int32Array, B: Int32Array, budget: DiffBudget): Edit[] {
  const n = A.length;
  const m = B.length;
  const max = n + m;
  if (max === 0) return [];
  if (budget.left <= 0) return replaceAll(n, m);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] holds v[-d..d] as it was before step d, enough to walk back from step d.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    if (d > MAX_EDIT_DISTANCE || budget.left <= 0) return replaceAll(n, m);
    trace.push(v.slice(offset - d, offset + d + 1));
    budget.left -= d + 1;
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0)) ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      const snakeFrom = x;
      while (x < n && y < m && A[x] === B[y]) {
        x++;
        y++;
      }
      budget.left -= x - snakeFrom;
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m);
    }
  }
  return replaceAll(n, m);
}

function backtrack(trace: readonly Int32Array[], n: number, m: number): Edit[] {
  const reversed: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const saved = trace[d] ?? new Int32Array(1);
    const at = (k: number): number => saved[k + d] ?? 0;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      reversed.push({ op: "equal", a: x, b: y });
    }
    if (d > 0) {
      if (x === prevX) reversed.push({ op: "insert", b: prevY });
      else reversed.push({ op: "delete", a: prevX });
    }
    x = prevX;
    y = prevY;
  }
  return reversed.reverse();
}

/** The fallback script: every old line deleted, every new line inserted. */
function replaceAll(n: number, m: number): Edit[] {
  const edits: Edit[] = [];
  for (let i = 0; i < n; i++) edits.push({ op: "delete", a: i });
  for (let j = 0; j < m; j++) edits.push({ op: "insert", b: j });
  return edits;
}
