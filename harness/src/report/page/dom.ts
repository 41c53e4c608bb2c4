/**
 * The page's few DOM helpers, shared by its parts (report-page.ts, episode-view.ts). Text goes
 * in through textContent and attributes through setAttribute: never through HTML parsing.
 */
const SVGNS = "http://www.w3.org/2000/svg";

export const DASH = "\u2014";

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string | number | null, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls !== undefined) e.className = cls;
  return e;
}

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Readonly<Record<string, string | number>> = {}): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** A finite number: the only thing allowed to become geometry or a formatted score. */
export function num(x: unknown): x is number {
  return typeof x === "number" && Number.isFinite(x);
}

export function score(x: number | null | undefined): string {
  return num(x) ? x.toFixed(4) : DASH;
}
