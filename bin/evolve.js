#!/usr/bin/env -S node --max-semi-space-size=4 --heap-growing-percent=20
// The `evolve` CLI. The installed package runs the compiled JavaScript that `npm pack` built
// into dist/ (scripts/build-package.mjs). A checkout (a git work tree) runs the harness's
// TypeScript through tsx, so it needs no build step and never runs a dist/ older than its source.
// The V8 flags above keep the harness's garbage small (a 4 MB young generation instead of
// up to 16 MB per semi-space, and an old generation that grows by 20 % instead of up to 4x):
// about 40 MB less peak RSS during a run for no measurable CPU (bench/RESULTS.md, part 5).
// `npm start` runs this file directly so they apply; `node bin/evolve.js` works without them.
import { existsSync } from "node:fs";

const compiled = new URL("../dist/harness/src/cli/main.js", import.meta.url);
const checkout = existsSync(new URL("../.git", import.meta.url));
let runCli;
if (!checkout && existsSync(compiled)) {
  ({ runCli } = await import(compiled.href));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ runCli } = await import("../harness/src/cli/main.ts"));
}
// Ends the process with the command's code, within a few seconds whatever is still open.
await runCli(process.argv.slice(2));
