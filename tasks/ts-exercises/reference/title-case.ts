export function titleCase(text: string): string {
  let out = "";
  let start = true;
  for (const c of text) {
    out += start ? c.toUpperCase() : c.toLowerCase();
    start = c === " " || c === "-";
  }
  return out;
}
