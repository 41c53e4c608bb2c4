/**
 * `evolve check` and the run's preflight grade a few instances against a trivial stand-in
 * candidate (no container, no agent code: canned replies on the host) to find a grader that
 * throws, hangs or returns a malformed outcome on the empty or hostile answers every real
 * candidate will sooner or later give.
 */
import { attemptInstance, type CallTarget } from "./grade-instance.js";
import type { SolveReply, TaskInstance } from "./grader.js";
import type { Task } from "./load-task.js";

/** Replies a grader must score (usually 0) without throwing. */
const TRIVIAL_REPLIES: readonly { label: string; reply: SolveReply }[] = [
  { label: "the answer null", reply: { ok: true, value: null, durationMs: 1 } },
  { label: "the answer {}", reply: { ok: true, value: {}, durationMs: 1 } },
  { label: "the answer []", reply: { ok: true, value: [], durationMs: 1 } },
  { label: 'the answer ""', reply: { ok: true, value: "", durationMs: 1 } },
  { label: "the answer -1", reply: { ok: true, value: -1, durationMs: 1 } },
  { label: "a crashed candidate", reply: { ok: false, kind: "crash", reason: "exited with code 1", durationMs: 1 } },
];
/** An interactive grader asked more often than this gets a crash: the episode must end. */
const MAX_CALLS = 1000;
const GRADE_TIMEOUT_MS = 10_000;
const INSTANCES_PER_SPLIT = 2;

/** A stand-in candidate that gives the same reply to every call, up to MAX_CALLS. */
function cannedTarget(reply: SolveReply): CallTarget {
  let calls = 0;
  return {
    alive: true,
    call: async (): Promise<SolveReply> => {
      calls += 1;
      return calls > MAX_CALLS ? { ok: false, kind: "crash", reason: "the stand-in candidate stopped answering", durationMs: 1 } : reply;
    },
  };
}

function instancesToTry(task: Task): { file: string; instance: TaskInstance }[] {
  return [
    ...task.visible.slice(0, INSTANCES_PER_SPLIT).map((instance) => ({ file: "visible.json", instance })),
    ...task.heldout.slice(0, INSTANCES_PER_SPLIT).map((instance) => ({ file: "heldout.json", instance })),
  ];
}

/** Every problem the trivial candidate finds (empty: the grader scored every reply). */
export async function smokeTestGrader(task: Task): Promise<string[]> {
  const problems: string[] = [];
  for (const { file, instance } of instancesToTry(task))
    for (const { label, reply } of TRIVIAL_REPLIES) {
      const where = `grader.ts: on ${file} instance ${JSON.stringify(instance.id).slice(0, 60)} with ${label}`;
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<"hung">((settle) => {
        timer = setTimeout(() => settle("hung"), GRADE_TIMEOUT_MS);
      });
      const attempt = await Promise.race([
        attemptInstance(task.grader, instance, cannedTarget(reply), 1, {
          instanceTimeoutMs: task.manifest.instanceTimeoutMs,
          splitDeadline: Date.now() + task.manifest.evaluationTimeoutMs,
          outputCapBytes: 1024 * 1024,
        }),
        hung,
      ]).finally(() => clearTimeout(timer));
      if (attempt === "hung") {
        problems.push(`${where}, grade() did not finish within ${GRADE_TIMEOUT_MS / 1000} s; it must end once the candidate's answers are unusable`);
        return problems;
      }
      const feedback = attempt.outcome.feedback;
      if (feedback.startsWith("grader error:")) {
        problems.push(`${where}, ${feedback.replace(/\s+/g, " ").slice(0, 240)}; grade() must score any answer (0 with a reason) and never throw`);
        // One report per instance is enough to find the bug; the rest would repeat it.
        break;
      }
    }
  return problems;
}
