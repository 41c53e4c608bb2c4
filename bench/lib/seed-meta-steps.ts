/**
 * One cold pass of the seed's offline meta agent over its own tree, as in a self-modification
 * container, for bench/seed-meta-cpu.ts: TypeScript loaded, the tree opened as a knob search
 * (every file parsed, knobs found; with the type-check on, ts-morph loaded and the tree put in
 * its project too), then four proposals (each a draft of the inner loop), with the
 * in-container type-check of each edit on or off. Prints one JSON line of CPU-seconds.
 *
 *   node --import tsx/esm bench/lib/seed-meta-steps.ts check|nocheck
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
await import("typescript");
const { search } = await import("../../seed-agent/meta/search-params.js");
search.typeCheck = process.argv[2] === "check";
const { openKnobSearch } = await import("../../seed-agent/meta/knob-search.js");

const root = resolve(import.meta.dirname, "../../seed-agent");
const files: string[] = [];
const walk = (dir: string, rel: string): void => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) walk(join(dir, e.name), path);
    else files.push(path);
  }
};
walk(root, "");
let state = 1;
const ctx = {
  random: (): number => (state = (state * 16807) % 2147483647) / 2147483647,
  files: { list: async () => files, read: async (p: string) => readFileSync(join(root, p), "utf8") },
  log: () => undefined,
};
const request = { task: { name: "email-validation" }, lineage: [], attempts: [], feedback: { stderr: "", instances: [] }, budget: { deadline: Date.now() + 120_000 } };

const loaded = cpu();
const knobs = await openKnobSearch(request as never, ctx as never);
const opened = cpu();
for (let i = 0; i < 4; i++) {
  knobs.restore(knobs.originals);
  knobs.propose();
}
const proposed = cpu();
process.stdout.write(`${JSON.stringify({ open: opened - loaded, propose4: proposed - opened })}\n`);
