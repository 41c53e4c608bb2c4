// Entry of the judge worker process. Where the harness runs compiled (the packed package's
// dist/, a checkout's CLI: scripts/compile-harness.mjs) the body is JavaScript beside this
// file; where it runs as TypeScript (the tests, tsx) it is loaded through tsx, which this
// process registers itself.
import { existsSync } from "node:fs";

const compiled = new URL("./judge-worker.js", import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("./judge-worker.ts");
}
