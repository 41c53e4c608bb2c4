/**
 * The type-check of the offline strategy's edits, for a search that cannot test its drafts
 * (no ctx.evaluate, or a tester generation of an arena run): every TypeScript file of the
 * tree in an in-memory ts-morph project, so an edited file is checked against the others as
 * they are now. ts-morph is loaded only here, and only when a search checks; such a search
 * then loads ts-morph's own TypeScript beside the one its knobs are parsed with (knobs.ts),
 * which costs it about a tenth of a CPU-second more than when one project did both, while
 * every search that does not check saves the whole project (bench/seed-meta-cpu.ts).
 */
import type { SourceFile } from "ts-morph";

const ROOT = "/agent/";

/** Diagnostics of one file of the tree as it is now. */
export interface EditCheck {
  /** The diagnostics of `path` as comparable keys, once the project holds `texts`. */
  keys(path: string, texts: ReadonlyMap<string, string>): Set<string>;
}

/**
 * One file's diagnostics as comparable keys (no positions: an edit shifts them). Only the
 * edited file is checked: a changed literal breaks its own file in all but contrived cases,
 * checking it alone costs a tenth of checking the tree, and the harness's compile gate
 * still catches the rest. The contract module is not in the tree, so its absence is ignored.
 */
function diagnosticKeys(sf: SourceFile): Set<string> {
  const keys = new Set<string>();
  for (const d of sf.getPreEmitDiagnostics()) {
    const raw = d.getMessageText();
    const message = typeof raw === "string" ? raw : raw.getMessageText();
    if (d.getCode() === 2307 || message.includes("@evolve/contract")) continue;
    keys.add(`${d.getCode()}|${message}`);
  }
  return keys;
}

/** A check over the tree `originals` (path → text). */
export async function openEditCheck(originals: ReadonlyMap<string, string>): Promise<EditCheck> {
  const { Project } = await import("ts-morph");
  const project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: { strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, skipLibCheck: true, target: 9, module: 199, moduleResolution: 99, lib: ["lib.es2023.d.ts"], noEmit: true },
  });
  for (const [path, text] of originals) project.createSourceFile(ROOT + path, text);
  return {
    keys(path, texts) {
      for (const [p, text] of texts) {
        const sf = project.getSourceFile(ROOT + p);
        if (sf !== undefined && sf.getFullText() !== text) sf.replaceWithText(text);
      }
      const sf = project.getSourceFile(ROOT + path);
      return sf === undefined ? new Set() : diagnosticKeys(sf);
    },
  };
}
