/**
 * The seed tester's knobs, annotated like task/'s: the offline meta agent moves them when it
 * rewrites a test generation (request.role "tester"), so a lineage of testers tunes what it probes.
 */
export const tester = {
  /** Fraction of `request.proposal.perRound` to fill (at least one proposal). */
  fill: 1, // evolve:range 0.2..1
  /** Which family of email probes comes first; "mixed" takes them round robin. */
  emailFocus: "mixed", // evolve:choices "mixed" | "quoted" | "ip" | "dots" | "hyphens" | "length" | "unicode" | "tags" | "tld" | "chars"
  /** Chance that an email probe is a variant of a listed one (another domain or case) rather than the listed one. */
  emailVariantRate: 0.25, // evolve:range 0..1
  /** Snake boards: the range of a side (5..20 is what the task takes). */
  snakeMin: 5, // evolve:range 5..20 int
  snakeMax: 13, // evolve:range 5..20 int
  /** Chance that a snake board side is made odd. */
  snakeOddRate: 0.7, // evolve:range 0..1
  /** Chance of a tiny board (sides 5 to 7), whatever the range. */
  snakeTinyRate: 0.35, // evolve:range 0..1
  /** Chance that a board copies the size of a suite test some candidate fails, with a new seed. */
  followFailing: 0.5, // evolve:range 0..1
  /** Ask the model when one is available (else the offline list only). */
  useLlm: true, // evolve:flag
  llmTemperature: 0.8, // evolve:range 0..1.2
  llmMaxTokens: 2000, // evolve:range 500..6000 int
};
