/** Tiny `--name value` / `--flag` parsing for the benchmark scripts, and the machine's load. */
import { loadavg } from "node:os";

/**
 * Checks argv against a script's usage line (`npx tsx bench/x.ts [--rounds 5] [--fresh]`),
 * the one place its options are written: `--help` prints the line; an unknown option or a
 * missing value stops the script with exit 2. A benchmark can run for hours, and a typo
 * like `--generation 60` must not quietly run the defaults (or record over earlier results).
 */
export function checkArgs(usage: string): void {
  const options = new Map([...usage.matchAll(/\[--([a-z-]+)( [^\]]+)?\]/g)].map((m) => [m[1], m[2] !== undefined]));
  const argv = process.argv.slice(2);
  const stop = (why: string): never => {
    console.error(`${why}\nusage: ${usage}`);
    process.exit(2);
  };
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(`usage: ${usage}`);
    process.exit(0);
  }
  for (let i = 0; i < argv.length; i++) {
    const takesValue = options.get(argv[i]!.replace(/^--/, ""));
    if (!argv[i]!.startsWith("--") || takesValue === undefined) stop(`unknown argument: ${argv[i]}`);
    if (takesValue && (argv[i + 1] === undefined || argv[i + 1]!.startsWith("--"))) stop(`${argv[i]} needs a value`);
    if (takesValue) i++;
  }
}

/** Reads `--name value` (or the default) from argv. */
export function argValue(name: string, fallback: string): string {
  const argv = process.argv.slice(2);
  const i = argv.indexOf(`--${name}`);
  const v = i >= 0 ? argv[i + 1] : undefined;
  return v === undefined || v.startsWith("--") ? fallback : v;
}

/** A positive integer option. */
export function argInt(name: string, fallback: number): number {
  const n = Number(argValue(name, String(fallback)));
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer`);
  return n;
}

/** True when `--name` is present. */
export function argFlag(name: string): boolean {
  return process.argv.slice(2).includes(`--${name}`);
}

/** The 1-minute load average: this machine is shared, so every figure carries it. */
export function load1(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}
