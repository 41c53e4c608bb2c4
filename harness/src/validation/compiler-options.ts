/**
 * The harness's own compiler options and import rule for agent trees. An agent's tsconfig.json
 * is never read: these options, and only these, decide what compiles.
 */
import { ts } from "ts-morph";

/** Options every agent tree is compiled with (mirrors the repository's own strictness). */
export function harnessCompilerOptions(typeRoots: string[]): ts.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts"],
    types: ["node"],
    typeRoots,
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noImplicitOverride: true,
    noFallthroughCasesInSwitch: true,
    isolatedModules: true,
    // What is written is what is emitted: a type-only import can never become a runtime load.
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    allowJs: false,
    resolveJsonModule: false,
    declaration: false,
    sourceMap: false,
    noEmitOnError: true,
    newLine: ts.NewLineKind.LineFeed,
  };
}

/** The ambient module the contract declares; agents may only import types from it. */
export const CONTRACT_MODULE = "@evolve/contract";

/** Packages the runtime image provides under /node_modules; their types come from the harness. */
export const TOOLCHAIN_PACKAGES: readonly string[] = ["typescript", "ts-morph"];

/**
 * Node built-ins an agent may import: pure computation only. Everything else (fs,
 * child_process, net, http(s), dgram, dns, tls, worker_threads, cluster, vm, inspector, v8,
 * module, os, process, ...) is a "forbidden_import".
 */
export const ALLOWED_NODE_BUILTINS: ReadonlySet<string> = new Set([
  "assert",
  "assert/strict",
  "buffer",
  "crypto",
  "events",
  "path",
  "path/posix",
  "perf_hooks",
  "string_decoder",
  "timers",
  "timers/promises",
  "url",
  "util",
  "util/types",
]);
