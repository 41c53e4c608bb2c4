#!/usr/bin/env node
// The `evolve` CLI. The harness is TypeScript run through tsx, so a checkout needs no build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../harness/src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
