/** Where the harness's own type declarations live: the toolchain the compile gate trusts. */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { EvolveError } from "../kernel/index.js";

/** Host paths of the declarations every agent compile uses. */
export interface ToolchainPaths {
  /** The harness's node_modules folder (typescript, ts-morph, @types/node live here). */
  nodeModules: string;
  /** harness/src/kernel/evolve-contract.d.ts: added to every compile. */
  contractFile: string;
  /** Declarations of the packages the runtime image provides, by import name. */
  packageTypes: ReadonlyMap<string, string>;
}

/** Locate the toolchain from this module's own position; throws EvolveError when missing. */
export function defaultToolchainPaths(): ToolchainPaths {
  const require = createRequire(import.meta.url);
  try {
    const typescriptRoot = dirname(require.resolve("typescript/package.json"));
    const nodeModules = dirname(typescriptRoot);
    const tsMorphTypes = join(nodeModules, "ts-morph", "lib", "ts-morph.d.ts");
    require.resolve("@types/node/package.json");
    return {
      nodeModules,
      contractFile: fileURLToPath(new URL("../kernel/evolve-contract.d.ts", import.meta.url)),
      packageTypes: new Map([
        ["typescript", join(typescriptRoot, "lib", "typescript.d.ts")],
        ["ts-morph", tsMorphTypes],
      ]),
    };
  } catch (cause) {
    throw new EvolveError("internal", "validation toolchain not found (typescript, ts-morph, @types/node)", {
      cause,
      hint: "Run `npm install` in the repository.",
    });
  }
}
