export function lruMisses(capacity: number, accesses: string[]): number {
  const cache = new Map<string, true>();
  let misses = 0;
  for (const key of accesses) {
    if (cache.has(key)) cache.delete(key);
    else {
      misses++;
      if (cache.size >= capacity) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
    }
    cache.set(key, true);
  }
  return misses;
}
