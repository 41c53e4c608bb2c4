/**
 * The instance grading without a container: a target that hangs the way a real session
 * reports a hang, so the failure text can be checked exactly (CI once saw "2999 ms").
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { attemptInstance, type CallTarget } from "../../harness/src/evaluation/grade-instance.js";
import { defineGrader, describeFailure, type SolveCall, type SolveReply } from "../../harness/src/evaluation/grader.js";

/** Hangs for the whole timeout it is given and then answers as the sandbox does. */
const hangingTarget: CallTarget = {
  alive: true,
  async call(_input, { timeoutMs }) {
    await new Promise((resolve) => setTimeout(resolve, timeoutMs));
    return { ok: false, kind: "timeout", reason: `no answer within ${timeoutMs} ms`, durationMs: timeoutMs };
  },
};

/** A grader that scores the last reply of its episode: 1 if answered, else 0 with the reason. */
function episodeGrader(episode: (solve: SolveCall) => Promise<SolveReply>) {
  return defineGrader({
    instanceSchema: z.object({ id: z.string() }),
    async grade(_instance, solve) {
      const reply = await episode(solve);
      return reply.ok ? { score: 1, value: 1, feedback: "" } : { score: 0, value: null, feedback: describeFailure(reply) };
    },
  });
}

const askOnce = episodeGrader(async (solve) => {
  // Let a few ms pass first, so the call gets less than the whole instance budget.
  await new Promise((resolve) => setTimeout(resolve, 15));
  return solve(1);
});

describe("attemptInstance", () => {
  it("names the instance time limit a hung call ran into, not the budget left when it was made", async () => {
    const limits = { instanceTimeoutMs: 200, splitDeadline: Date.now() + 60_000, outputCapBytes: 1024 };
    const attempt = await attemptInstance(askOnce, { id: "a" }, hangingTarget, 1, limits);
    expect(attempt.failure).toBe("timeout: no answer within the instance time limit of 200 ms");
    expect(attempt.outcome.feedback).toBe(attempt.failure); // what the grader saw says the same
    expect(attempt.outcome.score).toBe(0);
  });

  it("says the split ran out when its deadline came before the instance limit", async () => {
    const limits = { instanceTimeoutMs: 60_000, splitDeadline: Date.now() + 100, outputCapBytes: 1024 };
    const attempt = await attemptInstance(askOnce, { id: "a" }, hangingTarget, 1, limits);
    expect(attempt.failure).toMatch(/^timeout: no answer within the whole-evaluation time limit$/);
  });

  it("says the instance limit was reached when a later call of an episode starts past it", async () => {
    // Answers, but only after the whole budget is gone (a real session would have cut it off).
    const slowTarget: CallTarget = {
      alive: true,
      async call(_input, { timeoutMs }) {
        await new Promise((resolve) => setTimeout(resolve, timeoutMs + 20));
        return { ok: true, value: 1, durationMs: timeoutMs + 20 };
      },
    };
    const twoCalls = episodeGrader(async (solve) => {
      await solve(1);
      return solve(2);
    });
    const limits = { instanceTimeoutMs: 100, splitDeadline: Date.now() + 60_000, outputCapBytes: 1024 };
    const attempt = await attemptInstance(twoCalls, { id: "a" }, slowTarget, 1, limits);
    expect(attempt.failure).toBe("timeout: the instance time limit of 100 ms was reached");
    expect(attempt.outcome.feedback).toBe(attempt.failure);
  });
});
