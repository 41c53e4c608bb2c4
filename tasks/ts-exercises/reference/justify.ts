export function justify(words: string[], width: number): string[] {
  const lines: string[][] = [];
  let current: string[] = [];
  let length = 0;
  for (const word of words) {
    if (current.length > 0 && length + current.length + word.length > width) {
      lines.push(current);
      current = [];
      length = 0;
    }
    current.push(word);
    length += word.length;
  }
  if (current.length > 0) lines.push(current);
  return lines.map((line, index) => {
    if (index === lines.length - 1 || line.length === 1) return line.join(" ").padEnd(width);
    const spaces = width - line.reduce((s, w) => s + w.length, 0);
    const gaps = line.length - 1;
    return line.reduce((out, word, i) => {
      if (i === 0) return word;
      const pad = Math.floor(spaces / gaps) + (i <= spaces % gaps ? 1 : 0);
      return out + " ".repeat(pad) + word;
    }, "");
  });
}
