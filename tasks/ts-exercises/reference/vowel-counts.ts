export function vowelCounts(text: string): number[] {
  return text
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .map((w) => [...w.toLowerCase()].filter((c) => "aeiou".includes(c)).length);
}
