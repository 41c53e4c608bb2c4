/** Arena runs: rounds of test generations and code children. */
export { runArenaLoop } from "./arena-loop.js";
