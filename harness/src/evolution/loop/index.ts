/** W children in flight: selection in one place, the approval watch. */
export { ApprovalWatch } from "./approval-watch.js";
export { runLoop, type LoopOptions, type LoopState } from "./run-loop.js";
