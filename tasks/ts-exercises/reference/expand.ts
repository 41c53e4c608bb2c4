export function expand(text: string): string {
  return text.replace(/(\d+)(\D)/g, (_, count: string, c: string) => c.repeat(Number(count)));
}
