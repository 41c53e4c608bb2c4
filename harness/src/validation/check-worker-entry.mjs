// Entry of the check worker process. Where the harness runs compiled (the packed package's
// dist/, a checkout's CLI: scripts/compile-harness.mjs) the body is JavaScript beside this
// file; where it runs as TypeScript (the tests, tsx) it is loaded through tsx, which this
// process registers itself. TypeScript's compiler is loaded first, through its code cache
// (compiler-code-cache.ts), before the body imports ts-morph.
import { existsSync } from "node:fs";

const compiled = existsSync(new URL("./check-worker.js", import.meta.url));
if (!compiled) {
  const { register } = await import("tsx/esm/api");
  register();
}
const extension = compiled ? ".js" : ".ts";
const { preloadCompiler } = await import(`./compiler-code-cache${extension}`);
preloadCompiler();
await import(`./check-worker${extension}`);
