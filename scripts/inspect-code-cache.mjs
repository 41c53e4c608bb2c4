// Makes the inspect bundle's V8 code cache (bin/inspect-bundle.js): run by
// scripts/compile-harness.mjs as `node <bin/evolve.js's V8 flags> inspect-code-cache.mjs
// ROOT STAGING FINAL`, where STAGING is the build's folder before it is renamed to FINAL and
// ROOT is evolve's root folder (the cache carries the bundle's name, see bundleName). It
// compiles and runs the bundle's top level, as every command does first, and saves what V8
// compiled: the functions a command calls later are compiled lazily either way, and a cache
// that also held them (made after `evolve ls` and `evolve show` on a 1,000-generation
// archive) read the same archive no faster.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUNDLE, CODE_CACHE, bundleName, compileBundle } from "../bin/inspect-bundle.js";

const [root, staging, final] = process.argv.slice(2);
if (!root || !staging || !final) throw new Error("usage: node inspect-code-cache.mjs ROOT STAGING FINAL");
const { script } = compileBundle(join(staging, BUNDLE), bundleName(root, final));
writeFileSync(join(staging, CODE_CACHE), script.createCachedData());
