/**
 * Run in a fresh process by compiler-code-cache.test.ts: loads the compiler as a check worker
 * does (preload, then ts-morph), proves it compiles, saves the code cache, and prints how it
 * was loaded and whether ts-morph had to compile TypeScript itself.
 */
import { Module } from "node:module";
import { preloadCompiler, saveCompilerCodeCache } from "../../harness/src/validation/compiler-code-cache.js";

let compiledByNode = 0;
const prototype = Module.prototype as unknown as { _compile: (content: string, filename: string) => unknown };
const compile = prototype._compile;
prototype._compile = function (this: unknown, content: string, filename: string) {
  if (filename.endsWith("typescript.js")) compiledByNode++;
  return compile.call(this, content, filename);
};
const load = preloadCompiler();
const { Project } = await import("ts-morph");
const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true } });
project.createSourceFile("a.ts", "export const n: number = 'not a number';");
const errors = project.getPreEmitDiagnostics().length;
saveCompilerCodeCache();
process.stdout.write(JSON.stringify({ load, compiledByNode, errors }) + "\n");
