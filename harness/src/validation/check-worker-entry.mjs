// Entry of the check worker thread. A worker does not inherit the main thread's module
// hooks, so it registers tsx itself before loading the TypeScript body.
import { register } from "tsx/esm/api";

register();
await import("./check-worker.ts");
