/** Tiny `--name value` / `--flag` parsing for the benchmark scripts, and the machine's load. */
import { loadavg } from "node:os";

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
