// Entry of the judge worker process. It registers tsx itself (the harness is TypeScript run
// through tsx, with no build step) before loading the TypeScript body.
import { register } from "tsx/esm/api";

register();
await import("./judge-worker.ts");
