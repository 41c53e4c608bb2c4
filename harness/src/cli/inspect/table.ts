/** Plain-text columns for pipe-friendly output: left-aligned, two spaces apart, no colour. */

/** Rows of cells → lines, each column as wide as its widest cell (the last column unpadded). */
export function formatTable(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  ").trimEnd());
}

/** Whether to colour: stdout is a terminal and NO_COLOR is unset. */
export function useColour(): boolean {
  return process.stdout.isTTY === true && process.env["NO_COLOR"] === undefined;
}

/** Bold green on a terminal, the text itself otherwise. */
export function highlight(text: string, colour: boolean): string {
  return colour ? `\u001b[1;32m${text}\u001b[0m` : text;
}

/** Dim on a terminal. */
export function dim(text: string, colour: boolean): string {
  return colour ? `\u001b[2m${text}\u001b[0m` : text;
}

