#!/usr/bin/env -S node --max-semi-space-size=4 --heap-growing-percent=20
// The `evolve` CLI. The harness is TypeScript run through tsx, so a checkout needs no build step.
// The V8 flags above keep the harness's garbage small (a 4 MB young generation instead of
// up to 16 MB per semi-space, and an old generation that grows by 20 % instead of up to 4x):
// about 40 MB less peak RSS during a run for no measurable CPU (bench/RESULTS.md, part 5).
// `npm start` runs this file directly so they apply; `node bin/evolve.js` works without them.
import { register } from "tsx/esm/api";

register();
const { runCli } = await import("../harness/src/cli/main.ts");
// Ends the process with the command's code, within a few seconds whatever is still open.
await runCli(process.argv.slice(2));
