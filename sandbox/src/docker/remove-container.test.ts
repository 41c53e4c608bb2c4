/**
 * The retry policy of removeContainer. Docker's refusal of a forced removal while a container
 * is exiting is a race inside dockerd that no test can bring about on demand, so the container
 * here is a stand-in that answers as dockerd did (status 500, then success).
 */
import { describe, expect, it } from "vitest";
import { removeContainer } from "./remove-container.js";

function answering(...replies: (number | "ok")[]): { remove(): Promise<void>; calls: number } {
  const fake = {
    calls: 0,
    async remove(): Promise<void> {
      const reply = replies[fake.calls++] ?? "ok";
      if (reply !== "ok") throw Object.assign(new Error(`(HTTP code ${reply}) Could not kill running container x, cannot remove - Container x is not running`), { statusCode: reply });
    },
  };
  return fake;
}

describe("removeContainer", () => {
  it("tries again after a refusal, and counts the container gone once Docker removes it", async () => {
    const c = answering(500, 500);
    expect(await removeContainer(c, [1, 1, 1])).toBe(true);
    expect(c.calls).toBe(3);
  });

  it("takes 'no such container' as gone, without trying again", async () => {
    const c = answering(404);
    expect(await removeContainer(c, [1, 1, 1])).toBe(true);
    expect(c.calls).toBe(1);
  });

  it("gives up after the last delay, saying the container may still be there", async () => {
    const c = answering(500, 409, 500, 500, 500);
    expect(await removeContainer(c, [1, 1, 1])).toBe(false);
    expect(c.calls).toBe(4);
  });
});
