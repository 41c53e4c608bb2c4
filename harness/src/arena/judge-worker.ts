/**
 * The body of the judge worker: a child process with a heap cap that loads one task's
 * grader.ts and judges proposals one at a time: the proposal schema, `oracle.judge`, then the
 * instance against the grader's instanceSchema. Every one of those is trusted code running on
 * hostile data (a refine can loop, a judge can hang), so the harness kills this process on
 * its wall clock and starts a fresh one. argv[2]: the path of grader.ts.
 */
import { z } from "zod";
import { zodIssues } from "../kernel/index.js";
import { checkGraderShape, checkOracleShape, importTaskModule, type Grader, type Oracle } from "../evaluation/index.js";
import { oneLine } from "../text/index.js";
import { JUDGE_TEXT_CHARS, jsonDepth, MAX_INSTANCE_BYTES, MAX_INSTANCE_DEPTH, type JudgeJob, type JudgeResult, type JudgeWorkerMessage } from "./judge-protocol.js";

if (process.send === undefined) throw new Error("judge-worker.ts runs only as a child process with an IPC channel");
const send = (message: JudgeWorkerMessage): void => void process.send?.(message);
// The harness gone (even SIGKILLed) closes the channel: nothing is left behind.
process.on("disconnect", () => process.exit(0));

const line = (text: string): string => oneLine(text, JUDGE_TEXT_CHARS);
const describe = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
const discard = (code: Extract<JudgeResult, { outcome: "discarded" }>["code"], reason: string): JudgeResult => ({ outcome: "discarded", code, reason: line(reason) });

/** What `oracle.judge` may return (it is the task's code, judging hostile proposals: its answer is checked too). */
const Judgement = z.union([z.object({ ok: z.literal(true), instance: z.custom<unknown>((v) => v !== undefined, "instance is missing"), verdict: z.string() }), z.object({ ok: z.literal(false), reason: z.string() })]);

/** The instance as the grader parses it, as JSON text, or why it is not a test. */
function checkInstance(grader: Grader, instance: unknown, id: string): JudgeResult | { text: string } {
  let text: string | undefined;
  try {
    text = JSON.stringify(instance);
  } catch (error) {
    return discard("instance_schema", `the oracle's instance is not JSON (${describe(error)})`);
  }
  if (text === undefined) return discard("instance_schema", "the oracle's instance is not JSON");
  if (Buffer.byteLength(text) > MAX_INSTANCE_BYTES) return discard("instance_schema", `the oracle's instance is over ${MAX_INSTANCE_BYTES / 1024} KiB as JSON`);
  const value: unknown = JSON.parse(text);
  if (jsonDepth(value, MAX_INSTANCE_DEPTH) > MAX_INSTANCE_DEPTH) return discard("instance_schema", `the oracle's instance nests deeper than ${MAX_INSTANCE_DEPTH}`);
  const parsed = grader.instanceSchema.safeParse(value);
  if (!parsed.success) return discard("instance_schema", `the oracle's instance does not match grader.instanceSchema: ${zodIssues(parsed.error)}`);
  if (parsed.data.id !== id) return discard("instance_schema", `the oracle's instance has id ${JSON.stringify(parsed.data.id)?.slice(0, 60)}, not the given ${id}`);
  const out = JSON.stringify(parsed.data) as string | undefined;
  if (out === undefined || Buffer.byteLength(out) > MAX_INSTANCE_BYTES) return discard("instance_schema", "the parsed instance is not JSON of at most 256 KiB");
  return { text: out };
}

async function judgeOne(oracle: Oracle, grader: Grader, job: JudgeJob): Promise<JudgeResult> {
  const proposal = oracle.proposalSchema.safeParse(JSON.parse(job.proposal));
  if (!proposal.success) return discard("schema", zodIssues(proposal.error));
  let judged: unknown;
  try {
    judged = await oracle.judge(proposal.data, job.id);
  } catch (error) {
    return discard("oracle_failed", `oracle.judge threw: ${describe(error)}`);
  }
  const j = safely(() => Judgement.safeParse(judged));
  if (j === null || !j.success) {
    return discard("oracle_failed", `oracle.judge returned ${safely(() => JSON.stringify(judged)?.slice(0, 80)) ?? String(judged)}, not { ok: true, instance, verdict } or { ok: false, reason }`);
  }
  if (!j.data.ok) return discard("oracle_refused", j.data.reason);
  const checked = checkInstance(grader, j.data.instance, job.id);
  return "text" in checked ? { outcome: "accepted", instance: checked.text, verdict: line(j.data.verdict) } : checked;
}

async function start(path: string): Promise<{ oracle: Oracle; grader: Grader } | string> {
  let mod: Record<string, unknown>;
  try {
    mod = await importTaskModule(path);
  } catch (error) {
    return `grader.ts did not load in the judge worker: ${describe(error)}`;
  }
  const grader = checkGraderShape(mod);
  if (!grader.ok) return grader.problem;
  const oracle = checkOracleShape(mod);
  if (!oracle.ok) return oracle.problem;
  if (oracle.oracle === null) return "grader.ts exports no oracle";
  return { oracle: oracle.oracle, grader: grader.grader };
}

const loaded = await start(process.argv[2] ?? "");
if (typeof loaded === "string") send({ type: "start_failed", reason: line(loaded) });
else {
  process.on("message", (job: JudgeJob) => {
    judgeOne(loaded.oracle, loaded.grader, job).then(
      (result) => send({ type: "result", job: job.job, result }),
      (error: unknown) => send({ type: "result", job: job.job, result: discard("oracle_failed", `the oracle broke: ${describe(error)}`) }),
    );
  });
  send({ type: "ready" });
}

/** A value of `f`, or null when reading the oracle's answer throws (a getter, a cycle). */
function safely<T>(f: () => T): T | null {
  try {
    return f();
  } catch {
    return null;
  }
}
