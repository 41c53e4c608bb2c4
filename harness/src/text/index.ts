/**
 * Text caps: the one place text from an agent, a container, a grader or a model is cut to
 * size before it is stored, shown or sent on. A cap never returns more than `max`
 * characters, its mark included, so a caller's size budget is the real bound.
 */

/** The head of `text`, at most `max` characters; a cut ends with "…" or with `mark(fullLength)`. */
export function capText(text: string, max: number, mark: (fullLength: number) => string = () => "…"): string {
  if (text.length <= max) return text;
  const end = mark(text.length);
  return text.slice(0, Math.max(0, max - end.length)) + end.slice(0, max);
}

/** The tail of `text` (where the last errors are), at most `max` characters; a cut starts with "…". */
export function capTail(text: string, max: number): string {
  if (text.length <= max) return text;
  return max <= 0 ? "" : `…${text.slice(text.length - (max - 1))}`;
}

/** One line: runs of whitespace and control characters become one space, then capped. */
export function oneLine(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  return capText(text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, " ").trim(), max);
}

/** "1 worker", "2 workers": a count and its noun (`many` when the plural is not noun + "s"). */
export function plural(count: number, noun: string, many = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : many}`;
}

/**
 * The head of `text` cut at a word boundary, at most `max` characters with its "…": a live
 * line or a summary reads "kept 2 moves…", never "kept 2 mo…". A single word longer than
 * the room is cut inside it.
 */
export function capAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return "…".slice(0, max);
  const room = max - 1;
  const head = text.slice(0, room);
  // The room ends where a word does: keep all of it.
  if (/[\s,;:.!?)\]]/.test(text[room] ?? " ")) return `${head.replace(/[\s,;:.-]+$/, "")}…`;
  const space = head.search(/\s\S*$/);
  // A word so long that cutting before it would waste most of the room is cut inside.
  const cut = space >= room / 3 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:.-]+$/, "")}…`;
}
