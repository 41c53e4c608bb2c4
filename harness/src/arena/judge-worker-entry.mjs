// Entry of the judge worker process. In the packed package the body is compiled JavaScript
// beside this file (scripts/build-package.mjs); in a checkout it is TypeScript, loaded
// through tsx, which this process registers itself.
import { existsSync } from "node:fs";

const compiled = new URL("./judge-worker.js", import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("./judge-worker.ts");
}
