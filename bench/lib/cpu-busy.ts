/**
 * How busy the whole machine's CPUs were while something ran, from /proc/stat's first line
 * (Linux), sampled every 100 ms: the mean share busy, and how long they were saturated (every
 * core at ≥ 95 %). A run whose rate falls short while the machine is saturated is CPU-bound;
 * one that falls short while it idles waits on something else. Every process counts (the
 * harness, the containers, the Docker engine, anything else on the machine).
 */
import { readFileSync } from "node:fs";

const SAMPLE_MS = 100;
const SATURATED = 0.95;

/** One sample: the interval ending at `at` (epoch ms), `seconds` long, and the share of all cores busy in it. */
interface Sample {
  at: number;
  seconds: number;
  busy: number;
}

export interface CpuBusy {
  /** Seconds sampled. */
  seconds: number;
  /** Mean share of all cores busy, 0–1. */
  meanBusy: number;
  /** Seconds during which every core was at least 95 % busy. */
  saturatedSeconds: number;
}

/** Total and idle jiffies of all cores together; null where /proc/stat cannot be read. */
function jiffies(): { total: number; idle: number } | null {
  try {
    const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
    return { total: fields.reduce((a, b) => a + b, 0), idle };
  } catch {
    return null;
  }
}

/**
 * Starts sampling. `summary(from, to)` sums the samples that ended between `from` and `to`
 * (epoch ms): null where /proc/stat is missing or nothing was sampled then. `stop()` ends it.
 */
export function sampleCpuBusy(): { summary: (from: number, to: number) => CpuBusy | null; stop: () => void } {
  let last = jiffies();
  const samples: Sample[] = [];
  if (last === null) return { summary: () => null, stop: () => undefined };
  let lastAt = Date.now();
  const timer = setInterval(() => {
    const now = jiffies();
    const at = Date.now();
    if (now === null || last === null) return;
    const total = now.total - last.total;
    // The timer can fire late under load: each sample counts for the time it really covers.
    if (total > 0) samples.push({ at, seconds: (at - lastAt) / 1000, busy: 1 - (now.idle - last.idle) / total });
    last = now;
    lastAt = at;
  }, SAMPLE_MS);
  return {
    summary: (from, to) => {
      const inside = samples.filter((s) => s.at > from && s.at <= to);
      const seconds = inside.reduce((sum, s) => sum + s.seconds, 0);
      if (seconds === 0) return null;
      return {
        seconds,
        meanBusy: inside.reduce((sum, s) => sum + s.busy * s.seconds, 0) / seconds,
        saturatedSeconds: inside.filter((s) => s.busy >= SATURATED).reduce((sum, s) => sum + s.seconds, 0),
      };
    },
    stop: () => clearInterval(timer),
  };
}
