/**
 * Loops of synchronous file calls over trees (a few dozen small files, where one await per
 * call cost more than the call) let the event loop take a turn every FILES_PER_TURN files (a
 * folder created counts as one). A
 * hostile tree at the extractor's cap (2,000 files) took 0.4–2.6 s to write on this project's
 * disk, and would otherwise hold every other child's work that long; with a turn every 16
 * files the longest hold was 50–63 ms while the disk was busy.
 */
import { setImmediate as nextTurn } from "node:timers/promises";

export const FILES_PER_TURN = 16;

/** After the `done`-th file or folder (counted from 1), every FILES_PER_TURN of them, lets the event loop take a turn. */
export async function turnAfter(done: number): Promise<void> {
  if (done % FILES_PER_TURN === 0) await nextTurn();
}
