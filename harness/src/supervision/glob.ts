/**
 * The glob patterns of a run policy, matched by hand: Node 20's `path.matchesGlob` is
 * experimental (it prints a warning on every process) and a package would be a dependency
 * for twenty lines. The syntax is deliberately small, so a pattern means what it looks like:
 *
 * - a pattern is matched against the whole relative path (`meta/index.ts`), "/"-separated;
 * - `*` is any run of characters inside one segment, `?` one character inside one segment;
 * - a segment that is exactly `**` is any number of segments, none included, except at the
 *   end, where it is at least one (`meta/**` is everything under meta/ but not a file named
 *   meta; `**\/*.json` every .json file at any depth);
 * - everything else is literal, and dot-files are not special: `meta/**` covers
 *   `meta/.hidden`, so a protected folder cannot be edited through a dot-file.
 *
 * Brackets, braces and `!` are refused when the policy is read rather than silently taken
 * literally.
 */
import { z } from "zod";

const UNSUPPORTED = /[[\]{}!\\]/;

/** Why `pattern` is not one this matcher takes, or null when it is fine. */
function patternProblem(pattern: string): string | null {
  if (pattern.startsWith("/")) return "patterns are relative to the agent tree (no leading /)";
  if (UNSUPPORTED.test(pattern)) return "only *, ? and ** are special ([ ] { } ! and \\ are not supported)";
  for (const segment of pattern.split("/")) {
    if (segment === "") return "empty segment (// or a trailing /)";
    if (segment === "." || segment === "..") return `"${segment}" segments are not allowed`;
    if (segment.includes("**") && segment !== "**") return "** must be a whole segment (write meta/** or **/x.ts)";
  }
  return null;
}

/** One glob pattern, checked when the policy is read. */
export const GlobPattern = z
  .string()
  .min(1)
  .max(240)
  .superRefine((pattern, ctx) => {
    const problem = patternProblem(pattern);
    if (problem !== null) ctx.addIssue({ code: "custom", message: `${JSON.stringify(pattern)}: ${problem}` });
  });
export type GlobPattern = z.infer<typeof GlobPattern>;

function segmentRegex(segment: string): RegExp {
  const body = segment.replace(/[.+^$()|]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]");
  return new RegExp(`^${body}$`, "s");
}

/** A matcher for one pattern (compile once, match many paths). */
export function globMatcher(pattern: string): (path: string) => boolean {
  // Consecutive ** are one **: it keeps the backtracking below linear in their number.
  const parts = pattern.split("/").filter((s, i, all) => !(s === "**" && all[i - 1] === "**"));
  const segments = parts.map((s) => (s === "**" ? null : segmentRegex(s)));
  const match = (pi: number, path: readonly string[], si: number): boolean => {
    for (; pi < segments.length; pi++, si++) {
      const segment = segments[pi];
      if (segment === undefined) return false;
      if (segment === null) {
        // A trailing ** is what is inside the folder: at least one segment (meta/** is not "meta").
        const least = pi === segments.length - 1 ? si + 1 : si;
        for (let k = least; k <= path.length; k++) if (match(pi + 1, path, k)) return true;
        return false;
      }
      const name = path[si];
      if (name === undefined || !segment.test(name)) return false;
    }
    return si === path.length;
  };
  return (path) => match(0, path.split("/"), 0);
}

/** Whether `path` matches `pattern`. */
export function matchesGlob(path: string, pattern: string): boolean {
  return globMatcher(pattern)(path);
}

/** A matcher for several patterns: the first one a path matches, or null. */
export function firstMatchOf(patterns: readonly string[]): (path: string) => string | null {
  const matchers = patterns.map((p) => [p, globMatcher(p)] as const);
  return (path) => matchers.find(([, matches]) => matches(path))?.[0] ?? null;
}
