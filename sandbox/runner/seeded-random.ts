/**
 * A small seeded PRNG (mulberry32): the same seed gives the same sequence in [0, 1). The
 * project's one copy: the runner uses it in containers, and trusted task code (the snake
 * game's hidden food, circle-packing's reference script) on the host.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
