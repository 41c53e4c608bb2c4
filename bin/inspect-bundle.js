// The inspect bundle: the commands that read the archive, and the CLI's entry, in one
// CommonJS file (scripts/compile-harness.mjs builds it). It is compiled here with the V8 code
// cache that its build wrote beside it, so a command such as `evolve ls` skips most of
// parsing and compiling its ~600 KB; an ES module cannot take a code cache in Node 20.
//
// V8 takes the cache only from the same V8 version run with the same V8 flags (those on
// bin/evolve.js's first line); otherwise it says "rejected" and compiles the source, which
// is as fast as before there was a cache. The cache is code V8 runs without checking it
// against the source, so it lives only where the bundle does: in the build's own folder
// (dist/ of the installed package, or the checkout's .evolve-cache/harness/<key>/).
"use strict";
const { readFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { dirname, join, relative } = require("node:path");
const vm = require("node:vm");

/** The bundle and its code cache, relative to the compiled copy's folder. */
const BUNDLE = "inspect/main.cjs";
const CODE_CACHE = "inspect/main.cjs.v8-cache";

/**
 * The name the bundle in `dir` goes by in stack traces: its path from evolve's root folder
 * `root`. A code cache carries the name it was made under, and the package's is made where it
 * is packed, not where it is installed; so a name that travels with the package, the same
 * with the cache or without.
 */
function bundleName(root, dir) {
  return relative(root, join(dir, BUNDLE));
}

/**
 * Compiles and runs the bundle at `file` as CommonJS under the name `filename`; returns its
 * exports and the compiled script.
 */
function compileBundle(file, filename, cachedData) {
  // latin1: esbuild writes the bundle's code in ASCII, and only a comment may hold another
  // character (a dash, say), which would make the whole UTF-8 string two bytes a character:
  // read as latin1 it is one byte a character, which V8 reads and compiles faster.
  const source = readFileSync(file, "latin1");
  // Node's own CommonJS wrapper, on the source's first line so its line numbers stay.
  // No importModuleDynamically: the bundle imports no module at run time (code from a code
  // cache loses that setting in Node 20, and setting it prints an experimental warning).
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename, cachedData });
  const bundle = { exports: {} };
  script.runInThisContext()(bundle.exports, createRequire(file), bundle, file, dirname(file));
  return { exports: bundle.exports, script };
}

/** The bundle's exports from the compiled copy in `dir` under `root`, through its code cache when there is one. */
function loadInspectBundle(root, dir) {
  let cachedData;
  try {
    cachedData = readFileSync(join(dir, CODE_CACHE));
  } catch {
    // No cache beside the bundle: V8 compiles the source.
  }
  return compileBundle(join(dir, BUNDLE), bundleName(root, dir), cachedData).exports;
}

// One name per line, as ES modules that import this file (scripts/) read them.
exports.BUNDLE = BUNDLE;
exports.CODE_CACHE = CODE_CACHE;
exports.bundleName = bundleName;
exports.compileBundle = compileBundle;
exports.loadInspectBundle = loadInspectBundle;
