/**
 * The TreeCompiler's package.json lookups are made once per compiler, not once per program
 * (package-scope-cache.ts). It works only while ts-morph calls resolveModuleNames as a method
 * of the compiler host it gives TypeScript; these cases fail if that ever changes, instead of
 * the checks silently growing slow again. That the answers stay those of a fresh compiler is
 * tree-reuse.test.ts's part.
 */
import { Project, ts } from "ts-morph";
import { describe, expect, it } from "vitest";
import { sharingPackageScopes } from "../../harness/src/validation/package-scope-cache.js";

/** TypeScript's program has this method, though its public declarations leave it out. */
const cacheOf = (program: ts.Program): unknown => (program as unknown as { getModuleResolutionCache(): unknown }).getModuleResolutionCache();
const options = (): ts.CompilerOptions => ({ module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext });

describe("sharingPackageScopes", () => {
  it("answers as the resolver it wraps, and gives the host that calls it one cache for good", () => {
    const answer = [{ resolvedFileName: "/a.ts", extension: ts.Extension.Ts }];
    const resolve = sharingPackageScopes(options(), () => answer);
    const host = {} as ts.CompilerHost;
    expect(resolve.call(host, ["./a.js"], "/b.ts", undefined, undefined, options(), undefined)).toBe(answer);
    const cache = host.getModuleResolutionCache?.();
    expect(cache).toBeDefined();
    resolve.call(host, ["./a.js"], "/b.ts", undefined, undefined, options(), undefined);
    expect(host.getModuleResolutionCache?.()).toBe(cache);
    // A host with a cache of its own keeps it.
    const own = ts.createModuleResolutionCache("/", (n) => n, options());
    const other = { getModuleResolutionCache: () => own } as ts.CompilerHost;
    resolve.call(other, ["./a.js"], "/b.ts", undefined, undefined, options(), undefined);
    expect(other.getModuleResolutionCache?.()).toBe(own);
  });

  it("reaches the programs ts-morph makes: from the second on, they share one cache", () => {
    const project = new Project({
      useInMemoryFileSystem: true,
      compilerOptions: options(),
      resolutionHost: (host, getOptions) => ({
        resolveModuleNames: sharingPackageScopes(getOptions(), (names, containingFile) =>
          names.map((name) => ts.resolveModuleName(name, containingFile, getOptions(), host).resolvedModule),
        ),
      }),
    });
    project.createSourceFile("/p/a.ts", "export const a = 1;\n");
    project.createSourceFile("/p/b.ts", 'import { a } from "./a.js";\nexport const b = a;\n');
    project.getProgram().compilerObject.getSemanticDiagnostics();
    project.createSourceFile("/p/c.ts", 'import { b } from "./b.js";\nexport const c = b;\n');
    const second = cacheOf(project.getProgram().compilerObject);
    project.createSourceFile("/p/d.ts", 'import { c } from "./c.js";\nexport const d = c;\n');
    const third = cacheOf(project.getProgram().compilerObject);
    expect(second).toBeDefined();
    expect(third).toBe(second);
  });
});
