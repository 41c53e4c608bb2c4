// Injected first into the inspect bundle (scripts/compile-harness.mjs), before any schema is
// built: zod then parses without compiling a parser per object schema. A command that reads
// an archive once parses each schema a handful of times, or 1,000 times the same small one,
// so the compiled parser never pays back its generation (`evolve ls` read run.json 14 ms
// slower with it). The module-per-module copy, which runs the long commands, keeps zod's default.
import { config } from "zod";

config({ jitless: true });
