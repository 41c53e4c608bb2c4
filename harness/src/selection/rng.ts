/**
 * A small seeded PRNG (sfc32, seeded through splitmix32) whose whole state is four
 * uint32 words, so the evolution loop can persist it as plain JSON in run.json and a
 * resumed run continues the exact same sequence.
 */
import { z } from "zod";

const Uint32 = z.number().int().min(0).max(0xffff_ffff);

export const RngState = z.object({
  algorithm: z.literal("sfc32"),
  state: z.tuple([Uint32, Uint32, Uint32, Uint32]),
});
export type RngState = z.infer<typeof RngState>;

/** A deterministic random source; `state()` snapshots it, `restoreRng` resumes it. */
export interface Rng {
  /** A float in [0, 1) with 32 bits of randomness. */
  next(): number;
  /** An unsigned 32-bit integer. */
  nextUint32(): number;
  /** An integer in [0, n). */
  nextInt(n: number): number;
  /** The current state as plain JSON (a copy). */
  state(): RngState;
}

class Sfc32 implements Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(words: readonly [number, number, number, number]) {
    [this.#a, this.#b, this.#c, this.#d] = words;
  }

  nextUint32(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return t >>> 0;
  }

  next(): number {
    return this.nextUint32() / 0x1_0000_0000;
  }

  nextInt(n: number): number {
    if (!Number.isInteger(n) || n <= 0) throw new RangeError(`nextInt needs a positive integer, got ${n}`);
    return Math.floor(this.next() * n);
  }

  state(): RngState {
    return { algorithm: "sfc32", state: [this.#a >>> 0, this.#b >>> 0, this.#c >>> 0, this.#d >>> 0] };
  }
}

/** splitmix32: spreads a small integer seed over the 128-bit sfc32 state. */
function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e37_79b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85eb_ca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2_ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** A fresh generator for an integer seed (seeds beyond 32 bits are folded in). */
export function createRng(seed: number): Rng {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
  const high = Math.floor(seed / 0x1_0000_0000);
  const mix = splitmix32((seed ^ Math.imul(high, 0x27d4_eb2d)) >>> 0);
  const rng = new Sfc32([mix(), mix(), mix(), mix()]);
  // The first outputs of sfc32 still correlate with the seed; discard them.
  for (let i = 0; i < 12; i++) rng.nextUint32();
  return rng;
}

/** A generator continuing exactly where `state` was taken. */
export function restoreRng(state: RngState): Rng {
  const parsed = RngState.parse(state);
  return new Sfc32(parsed.state);
}
