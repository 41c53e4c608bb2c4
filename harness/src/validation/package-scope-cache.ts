/**
 * One package.json cache for every program the TreeCompiler makes. Under NodeNext, TypeScript
 * decides each file's module format from the package.json above it, and keeps those lookups in
 * the compiler host's module resolution cache. ts-morph's compiler host has none, so each new
 * program (one per check) read and parsed the package.json files above every lib and
 * @types/node file again: about a third of checking a tree with one knob moved (41 → 26 ms
 * in-process, p50 of 300 checks, 2026-11-29). ts-morph forwards only resolveModuleNames to its
 * host, and TypeScript calls it as a method of that host, so that call is where the cache is
 * installed: from the second program on, every lookup is made once per compiler.
 *
 * Sound because no lookup's answer changes in a compiler's life: the toolchain is fixed, and a
 * tree shows no package.json but the fixed one at its root (ConfinedFileSystem).
 */
import { ts } from "ts-morph";

type ResolveModuleNames = NonNullable<ts.CompilerHost["resolveModuleNames"]>;

/** `resolve`, installing one module resolution cache (for its package.json lookups) on the host that calls it. */
export function sharingPackageScopes(options: ts.CompilerOptions, resolve: ResolveModuleNames): ResolveModuleNames {
  const cache = ts.createModuleResolutionCache("/", (name) => name, options);
  return function (this: ts.CompilerHost | undefined, ...args) {
    if (this !== undefined && this.getModuleResolutionCache === undefined) this.getModuleResolutionCache = () => cache;
    return resolve(...args);
  };
}
