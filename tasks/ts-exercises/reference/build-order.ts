export function buildOrder(tasks: string[], deps: [string, string][]): string[] | null {
  const incoming = new Map(tasks.map((t) => [t, 0]));
  const next = new Map<string, string[]>(tasks.map((t) => [t, []]));
  for (const [before, after] of deps) {
    next.get(before)?.push(after);
    incoming.set(after, (incoming.get(after) ?? 0) + 1);
  }
  const ready = tasks.filter((t) => incoming.get(t) === 0);
  const order: string[] = [];
  while (ready.length > 0) {
    ready.sort();
    const task = ready.shift() as string;
    order.push(task);
    for (const after of next.get(task) ?? []) {
      const left = (incoming.get(after) ?? 0) - 1;
      incoming.set(after, left);
      if (left === 0) ready.push(after);
    }
  }
  return order.length === tasks.length ? order : null;
}
