/**
 * The grader of this task: trusted code that runs on your machine, never in a container.
 * It drives the candidate through `solve(input)` and scores what comes back.
 *
 * The candidate's answer is hostile: it can be any JSON value of any shape (null, a string,
 * a huge array, NaN turned into null...). Check it before you use it, score unusable answers
 * 0 with the reason, and never throw. Keep held-out instances out of the feedback: the
 * feedback of visible instances goes to the agent that rewrites itself.
 *
 * `evolve/task` (and `zod`) resolve to evolve's own copies, from any folder.
 */
import { defineGrader, noAnswer, parseAnswer, z, zeroScore } from "evolve/task";

/** One instance of visible.json / heldout.json; every instance has a string id. */
const Instance = z.object({
  id: z.string().min(1),
  numbers: z.array(z.number().int()).min(1).max(10_000),
});
type Instance = z.infer<typeof Instance>;

export const grader = defineGrader<Instance>({
  instanceSchema: Instance,

  // ctx.seed is for your own randomness (an interactive task's hidden state, say).
  async grade(instance, solve) {
    // One call here; an interactive task calls solve() once per step of an episode.
    const reply = await solve({ numbers: instance.numbers });
    // Timeout, crash or protocol violation: no answer at all.
    if (!reply.ok) return noAnswer(reply);

    // The length check comes first, so a huge answer costs nothing to reject.
    const answer = parseAnswer(z.array(z.number()).length(instance.numbers.length), reply.value);
    if (!answer.ok) return zeroScore(`invalid output: ${answer.reason}`);

    const expected = [...instance.numbers].sort((a, b) => a - b);
    const right = expected.filter((n, i) => answer.value[i] === n).length;
    const score = right / expected.length;
    return {
      score, // in [0, 1], higher is better
      value: score, // the raw metric (null when the answer was unusable)
      feedback: `${right}/${expected.length} positions right`, // no expected values: held-out stays hidden
    };
  },
});
