/** A trusted child process that works on hostile input under a heap cap and a CPU-time limit (the type checker, the arena's oracle). */
export { BoundedProcess, WALL_BACKSTOP, type BoundedProcessOptions, type ProcessEnd } from "./bounded-process.js";
