/**
 * The tool loop edits the workspace itself (ctx.evaluate checks the workspace as it is), so
 * the drafts live there. This remembers each touched file's original text and the best
 * evaluated draft, so the loop can end on the best draft rather than the last one.
 */
import type { WorkspaceFiles } from "@evolve/contract";

/** Text of each touched file in one draft; null when the file does not exist in it. */
export type Draft = Map<string, string | null>;

export class Drafts {
  readonly #files: WorkspaceFiles;
  /** Each touched file as the parent had it (null: the parent had no such file). */
  readonly #originals = new Map<string, string | null>();
  /** Each touched file as it is now. */
  readonly #current = new Map<string, string | null>();
  #best: { score: number; draft: Draft; at: number } | null = null;
  #evaluations = 0;

  constructor(files: WorkspaceFiles) {
    this.#files = files;
  }

  /** The file's current text, or null when it does not exist. */
  async read(path: string): Promise<string | null> {
    if (this.#current.has(path)) return this.#current.get(path) ?? null;
    return this.#files.read(path).catch(() => null);
  }

  /** Writes a file of the draft, remembering its original text the first time. */
  async write(path: string, text: string): Promise<void> {
    if (!this.#originals.has(path)) this.#originals.set(path, await this.#files.read(path).catch(() => null));
    await this.#files.write(path, text);
    this.#current.set(path, text);
  }

  /** Files whose text differs from the parent's, sorted. */
  changed(): string[] {
    return [...this.#current].filter(([path, text]) => this.#originals.get(path) !== text).map(([path]) => path).sort();
  }

  /** Records an evaluated draft (the workspace as it is now); keeps it when it beats the best so far. */
  evaluated(score: number): boolean {
    this.#evaluations++;
    if (this.#best !== null && score <= this.#best.score) return false;
    this.#best = { score, draft: new Map(this.#current), at: this.#evaluations };
    return true;
  }

  /** The best evaluated score, and which evaluation gave it; null before any. */
  best(): { score: number; at: number; of: number } | null {
    return this.#best === null ? null : { score: this.#best.score, at: this.#best.at, of: this.#evaluations };
  }

  /** Puts the best evaluated draft back when the workspace has moved on from it; true when it did. */
  async restoreBest(): Promise<boolean> {
    if (this.#best === null) return false;
    let restored = false;
    for (const [path, text] of this.#current) {
      // A file touched after the best draft was taken is as the parent had it in that draft.
      const want = this.#best.draft.has(path) ? (this.#best.draft.get(path) ?? null) : (this.#originals.get(path) ?? null);
      if (want === text) continue;
      await this.#put(path, want);
      restored = true;
    }
    return restored;
  }

  /** Puts a file back as the parent had it. */
  async revert(path: string): Promise<void> {
    await this.#put(path, this.#originals.get(path) ?? null);
  }

  async #put(path: string, text: string | null): Promise<void> {
    if (text === null) await this.#files.delete(path);
    else await this.#files.write(path, text);
    this.#current.set(path, text);
  }
}
