/** The self-modification seed of one generation: fixed per run and generation number. */
export function generationSeed(runSeed: number, generation: number): number {
  let h = (runSeed ^ Math.imul(generation + 1, 0x9e37_79b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x85eb_ca6b) >>> 0;
  return (h ^ (h >>> 13)) & 0x7fff_ffff;
}
