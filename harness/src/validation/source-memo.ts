/**
 * Facts of a parsed source kept while the source object lives. The long-lived compiler keeps a
 * tree's unchanged files as the same parsed objects from check to check (tree-compiler.ts), so
 * walks over a file's syntax (its imports, its global declarations, the import rule) are done
 * once per text instead of once per check: a draft that edits one file re-walks that file alone.
 * A fact is a function of the source's text (and of the extra key), which the memo checks.
 */
import type { ts } from "ts-morph";

export function memoBySource<T>(compute: (source: ts.SourceFile, extra: string) => T): (source: ts.SourceFile, extra?: string) => T {
  const memo = new WeakMap<ts.SourceFile, { text: string; extra: string; value: T }>();
  return (source, extra = "") => {
    const known = memo.get(source);
    if (known !== undefined && known.text === source.text && known.extra === extra) return known.value;
    const value = compute(source, extra);
    memo.set(source, { text: source.text, extra, value });
    return value;
  };
}
