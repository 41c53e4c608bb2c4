export function pluralize(count: number, noun: string): string {
  if (count === 1) return `1 ${noun}`;
  let plural: string;
  if (/[^aeiou]y$/.test(noun)) plural = `${noun.slice(0, -1)}ies`;
  else if (/(s|x|z|ch|sh)$/.test(noun)) plural = `${noun}es`;
  else plural = `${noun}s`;
  return `${count} ${plural}`;
}
