/**
 * The tree as the offline strategy searches it: the text of every TypeScript file, parsed
 * on demand (knobs.ts), and `propose()`, which changes a few knobs of it guided by the lineage
 * (keep moving a knob that helped, back off one that hurt) and by the feedback (timeouts
 * push effort knobs down). Deterministic for ctx.random.
 */
import type { ImproveContext, ImproveRequest } from "@evolve/contract";
import { posix } from "node:path";
import ts from "typescript";
import { openEditCheck, type EditCheck } from "./edit-check.js";
import { annotatedKnobs, literalKnobs, parseSource, type Knob } from "./knobs.js";
import { hintFor, knobHistory, mutate, type Hint, type Move } from "./moves.js";
import { search } from "./search-params.js";
import { helpedNearby, moveKey, triedFromParent } from "./tried.js";

export const SELF = "meta/search-params.ts";
/** The tester (arena runs): its knobs move only in a tester generation, never for the solver. */
export const TESTER_DIR = "tester/";
const EFFORT = /iter|restart|sample|round|trial|depth|attempt|budget|lookahead|generation|pass|rollout/i;
const NOT_EFFORT = /size|scale|rate|temperature|prob/i;
/** A type-check costs up to a few seconds cold; skip it when the deadline is closer than this. */
const CHECK_MARGIN_MS = 8000;

/** Path → source text of the tree's TypeScript files. */
export type Texts = Map<string, string>;

/** The tree's files as they are now, and the moves that change them. */
export interface KnobSearch {
  /** The files as the parent left them. */
  readonly originals: Texts;
  /** The task's solver file, if the tree has one. */
  readonly taskFile: string | null;
  readonly withKnobs: readonly string[];
  readonly checking: boolean;
  /** The files as they are now. */
  texts(): Texts;
  /** Puts the files back to `texts`. */
  restore(texts: Texts): void;
  /**
   * Changes a few knobs of the files (the plan, then a fallback so it is never empty
   * while an untried move exists); returns the moves. A move a sibling already tried (the
   * request's attempts), or one in `exclude` (moveKey), is never proposed.
   */
  propose(exclude?: ReadonlySet<string>): Move[];
}

/** The text of every TypeScript file of the tree (declaration files left out). */
async function loadTree(ctx: ImproveContext): Promise<Texts> {
  const originals: Texts = new Map();
  for (const path of await ctx.files.list()) {
    if (!path.endsWith(".ts") || path.endsWith(".d.ts")) continue;
    originals.set(path, await ctx.files.read(path));
  }
  return originals;
}

/**
 * The meta agent's own folder: its settings are annotated (SELF); its plain literals are its
 * code (compiler options typed by packages the in-memory check cannot see, protocol limits),
 * and moving one broke the child's compile where that check saw nothing.
 */
const META_DIR = "meta/";

/** A file's annotated knobs, else (the literal fallback) its plain literals. */
function knobsOf(path: string, sf: ts.SourceFile): Knob[] {
  const annotated = annotatedKnobs(path, sf);
  return annotated.length > 0 ? annotated : literalKnobs(path, sf, annotated);
}

function pickWeighted<T>(items: readonly T[], weight: (item: T) => number, random: () => number): T | undefined {
  const total = items.reduce((sum, item) => sum + weight(item), 0);
  let r = random() * total;
  for (const item of items) {
    r -= weight(item);
    if (r < 0) return item;
  }
  return items[items.length - 1];
}

/**
 * The files `start` imports, directly or through others, by relative specifiers (`./x.js` is
 * the tree's `x.ts`), `start` included.
 */
function importClosure(start: string, sourceOf: (path: string) => ts.SourceFile | undefined): Set<string> {
  const seen = new Set<string>();
  const pending = [start];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    const sf = sourceOf(path);
    if (seen.has(path) || sf === undefined) continue;
    seen.add(path);
    for (const statement of sf.statements) {
      const specifier = ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement.moduleSpecifier : undefined;
      const spec = specifier !== undefined && ts.isStringLiteral(specifier) ? specifier.text : undefined;
      if (spec === undefined || !spec.startsWith(".")) continue;
      pending.push(posix.join(posix.dirname(path), spec).replace(/\.js$/, ".ts"));
    }
  }
  return seen;
}

/** The solver file of the task being evolved: `task/<name>.ts`, else a task file naming it. */
function taskFileOf(task: string, paths: readonly string[]): string | null {
  const exact = `task/${task}.ts`;
  if (paths.includes(exact)) return exact;
  return paths.find((p) => p.startsWith("task/") && p.includes(task)) ?? null;
}

/** How a search is opened. */
export interface SearchOptions {
  /**
   * A folder such as "tester/": only annotated knobs of files under it move (our own search
   * parameters only if under it). Without, every file but the tester's.
   */
  scope?: string;
  /**
   * Whether each edit is type-checked here before it is kept (default: search.typeCheck).
   * The inner loop turns it off: the harness checks every draft before it evaluates it, in
   * its warm check worker, so a cold check here (most of the container's CPU) pays twice.
   */
  typeCheck?: boolean;
}

/**
 * Opens the search over the workspace's tree (see SearchOptions for its scope and checks).
 *
 * Long on purpose: `propose` and `restore` are closures over the files' texts, the
 * per-file diagnostic baselines and the run's random stream, drawn from in the order the seed
 * has always drawn (a split would pass a dozen values around, and any change in the order of
 * draws changes every seeded run's route).
 */
export async function openKnobSearch(request: ImproveRequest, ctx: ImproveContext, options: SearchOptions = {}): Promise<KnobSearch> {
  const { scope } = options;
  const random = (): number => ctx.random();
  const originals = await loadTree(ctx);
  const paths = [...originals.keys()];
  const current: Texts = new Map(originals);
  const parsed = new Map<string, ts.SourceFile>();
  // A file is parsed again only when its text has changed since its last parse.
  const sourceOf = (path: string): ts.SourceFile | undefined => {
    const text = current.get(path);
    if (text === undefined) return undefined;
    const known = parsed.get(path);
    if (known !== undefined && known.text === text) return known;
    const sf = parseSource(path, text);
    parsed.set(path, sf);
    return sf;
  };
  const history = knobHistory(request.lineage, search.memory);
  const triedBefore = triedFromParent(request, search.memory);
  const preferred = helpedNearby(request);
  const text = [request.feedback.stderr, ...request.feedback.instances.map((i) => i.feedback)].join("\n");
  const timeoutPressure = /time ?out|timed out|deadline|time limit/i.test(text);
  const steps = { stepScale: search.stepScale, momentum: search.momentum, retreat: search.retreat };

  const hintOf = (knob: Knob): Hint => {
    const hint = hintFor(history.get(`${knob.file}|${knob.name}`), steps);
    // A flag whose last move raised the score has no move left but undoing it: never picked.
    if (knob.spec.kind === "flag" && hint.avoid !== null && hint.avoid !== knob.text) return { ...hint, weight: 0 };
    const effort = knob.spec.kind === "range" && knob.spec.int && EFFORT.test(knob.name) && !NOT_EFFORT.test(knob.name);
    if (!effort || hint.direction !== 0) return hint;
    // Without a credited move, more effort is the usual bet, unless instances ran out of time.
    return timeoutPressure ? { ...hint, direction: -1, weight: 3 } : { ...hint, direction: random() < 0.7 ? 1 : -1 };
  };

  const inScope = (p: string): boolean => (scope === undefined ? !p.startsWith(TESTER_DIR) : p.startsWith(scope));
  // A scoped search moves annotated knobs only: the scope's plain literals are its code, not its settings.
  const annotatedOnly = (p: string): boolean => scope !== undefined || p.startsWith(META_DIR) || !search.literalFallback;
  const knobsIn = (p: string): Knob[] => {
    // Without `evolve:` in its text a file has no annotated knob, so one searched for no other
    // kind is not even parsed: most of our own folder, and most of the search's opening CPU.
    if (annotatedOnly(p) && !(current.get(p) ?? "").includes("evolve:")) return [];
    const sf = sourceOf(p);
    if (sf === undefined) return [];
    return annotatedOnly(p) ? annotatedKnobs(p, sf) : knobsOf(p, sf);
  };
  const taskFile = scope === undefined ? taskFileOf(request.task.name, paths) : null;
  const withKnobs = paths.filter((p) => inScope(p) && knobsIn(p).length > 0);
  // With the task's solver known, the other task/ files with knobs are other tasks' solvers:
  // a move there cannot change this task's score, so a draft spent on one is a container lost.
  // Files the solver imports stay, and so does everything outside task/.
  const solverClosure = taskFile === null ? null : importClosure(taskFile, sourceOf);
  const searchable = withKnobs.filter((p) => solverClosure === null || !p.startsWith("task/") || solverClosure.has(p));
  const checking = (options.typeCheck ?? search.typeCheck) && Date.now() < request.budget.deadline - CHECK_MARGIN_MS;
  const check: EditCheck | null = checking ? await openEditCheck(originals) : null;
  const baselines = new Map<string, Set<string>>();
  // Diagnostics of a file before its first edit: an edit may not add to them.
  const baselineOf = (path: string, edit: EditCheck): Set<string> => {
    const known = baselines.get(path) ?? edit.keys(path, current);
    baselines.set(path, known);
    return known;
  };

  const propose = (exclude?: ReadonlySet<string>): Move[] => {
    const untried = (path: string, name: string, to: string): boolean => {
      const key = moveKey({ file: path, name, to });
      return !triedBefore.has(key) && exclude?.has(key) !== true;
    };
    const plan: string[] = [];
    // Our own search parameters are not among the others: they change how later generations
    // search, never this tree's score, so alone they make a draft that cannot win. They come
    // as an extra edit (selfEditRate) or as the last fallback.
    const others = searchable.filter((p) => p !== taskFile && p !== SELF);
    for (let i = 0; i < search.editsPerGeneration; i++) {
      const useTask = taskFile !== null && withKnobs.includes(taskFile) && (random() < search.taskFileBias || others.length === 0);
      const file = useTask ? taskFile : others[Math.floor(random() * others.length)];
      if (file !== undefined && file !== null) plan.push(file);
    }
    if (withKnobs.includes(SELF) && random() < search.selfEditRate) plan.push(SELF);
    const moves: Move[] = [];
    const tried = new Set<string>();

    // Sets a knob, unless that adds a diagnostic to its file (then the file is put back).
    const apply = (path: string, knob: Knob, next: string): boolean => {
      const before = current.get(path) ?? "";
      const baseline = check === null ? null : baselineOf(path, check);
      current.set(path, before.slice(0, knob.start) + next + before.slice(knob.end));
      if (check !== null && baseline !== null && [...check.keys(path, current)].some((k) => !baseline.has(k))) {
        current.set(path, before);
        return false;
      }
      moves.push({ file: path, name: knob.name, from: knob.text, to: next });
      return true;
    };

    const editOnce = (path: string): boolean => {
      if (!current.has(path)) return false;
      for (let attempt = 0; attempt < 6; attempt++) {
        const knobs = knobsIn(path).filter((k) => !tried.has(`${path}|${k.name}`));
        const hints = new Map(knobs.map((k) => [k, hintOf(k)] as const));
        const knob = pickWeighted(knobs, (k) => hints.get(k)?.weight ?? 1, random);
        const hint = knob && hints.get(knob);
        if (!knob || !hint) return false;
        tried.add(`${path}|${knob.name}`);
        const next = mutate(knob, hint, steps, random);
        if (next === null || !untried(path, knob.name, next)) continue;
        if (apply(path, knob, next)) return true;
      }
      return false;
    };

    // First a move that raised a close relative's score, where its knob is still at the value it moved from.
    for (const m of preferred) {
      const knob = inScope(m.file) && untried(m.file, m.name, m.to) ? knobsIn(m.file).find((k) => k.name === m.name && k.text === m.from) : undefined;
      if (knob !== undefined && apply(m.file, knob, m.to)) return moves;
    }
    for (const path of plan) editOnce(path);
    // Never an empty proposal: fall back to any knob that can change the score, then to our own search parameters.
    if (moves.length === 0) for (const path of [...searchable.filter((p) => p !== SELF), SELF].filter(inScope)) if (editOnce(path)) break;
    return moves;
  };

  return {
    originals,
    taskFile,
    withKnobs,
    checking,
    texts: () => new Map(paths.map((p) => [p, current.get(p) ?? ""])),
    restore(texts) {
      for (const [path, text] of texts) if (current.has(path)) current.set(path, text);
    },
    propose,
  };
}
