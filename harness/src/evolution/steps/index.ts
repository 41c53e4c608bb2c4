/** One generation each, start to end: a child, the seed (g0000), an arena test generation; the record; redoing one whose engine was lost. */
export { runChild, type ChildPlan } from "./child-step.js";
export { buildRecord, recordGeneration, type RecordInputs } from "./record-generation.js";
export { redoingLost } from "./redo-lost.js";
export { runSeedGeneration } from "./seed-step.js";
export { runTester, type TesterOutcome } from "./tester-step.js";
