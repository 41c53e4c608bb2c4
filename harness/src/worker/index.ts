/** A trusted child process that works on hostile input under a heap cap and a wall clock (the type checker, the arena's oracle). */
export { BoundedProcess, type BoundedProcessOptions, type ProcessEnd } from "./bounded-process.js";
