/**
 * Node module hooks for task code (registered by import-task-module.ts; they run on Node's
 * hooks thread, so this file imports nothing but built-ins). They make a task folder work
 * from anywhere, with or without a package.json or node_modules of its own:
 * - `evolve/task` is the harness's task API, and `zod` (with its subpaths) the harness's zod;
 * - TypeScript outside node_modules is an ES module whatever package.json is (or is not)
 *   near it, and `./x.js` finds `./x.ts` as in the harness itself. Without this a `.ts` file
 *   with no `"type": "module"` above it is loaded as CommonJS, where these hooks never run.
 * Everything else resolves as Node would, then tsx compiles the TypeScript.
 */
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

/** What import-task-module.ts passes to `module.register`. */
export interface TaskHooksData {
  /** Specifier → the URL it always means (the task API). */
  aliases: Record<string, string>;
  /** Packages (and their subpaths) always resolved from `anchor`: the harness's own copies. */
  harnessPackages: string[];
  /** A file URL inside the harness to resolve those packages from. */
  anchor: string;
}

interface ResolveContext {
  parentURL?: string;
  conditions?: string[];
  importAttributes?: Record<string, string>;
}
interface ResolveResult {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}
type NextResolve = (specifier: string, context: ResolveContext) => Promise<ResolveResult>;

let data: TaskHooksData = { aliases: {}, harnessPackages: [], anchor: "" };

export function initialize(received: TaskHooksData): void {
  data = received;
}

const TYPESCRIPT = /\.m?ts$/;

/** The file path of a file: URL without the query tsx may add (some of it percent-encoded). */
function filePath(url: string): string {
  const path = fileURLToPath(url.split("?")[0]!);
  const cut = path.indexOf("?");
  return cut < 0 ? path : path.slice(0, cut);
}

/** The TypeScript file a path-like specifier names, when it is one outside node_modules. */
function typescriptTarget(specifier: string, parentURL: string | undefined): string | null {
  let target: string;
  if (specifier.startsWith("file:")) target = filePath(specifier);
  else if (specifier.startsWith("/")) target = specifier;
  else if ((specifier.startsWith("./") || specifier.startsWith("../")) && parentURL?.startsWith("file:"))
    target = fileURLToPath(new URL(specifier, pathToFileURL(filePath(parentURL))));
  else return null;
  if (target.includes("/node_modules/")) return null;
  const candidates = TYPESCRIPT.test(target)
    ? [target]
    : /\.m?js$/.test(target)
      ? [target.replace(/\.js$/, ".ts").replace(/\.mjs$/, ".mts")]
      : [`${target}.ts`, `${target}/index.ts`];
  return candidates.find((file) => existsSync(file)) ?? null;
}

function isHarnessPackage(specifier: string): boolean {
  return data.harnessPackages.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

export async function resolve(specifier: string, context: ResolveContext, next: NextResolve): Promise<ResolveResult> {
  const alias = data.aliases[specifier];
  if (alias !== undefined) return { url: alias, format: "module", shortCircuit: true };
  if (isHarnessPackage(specifier)) return next(specifier, { ...context, parentURL: data.anchor });
  const typescript = typescriptTarget(specifier, context.parentURL);
  if (typescript !== null) return { url: pathToFileURL(typescript).href, format: "module", shortCircuit: true };
  return next(specifier, context);
}
