export function compress(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    let j = i;
    while (j < text.length && text[j] === text[i]) j++;
    out += (j - i > 1 ? String(j - i) : "") + text[i];
    i = j;
  }
  return out;
}
