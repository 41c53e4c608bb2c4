/**
 * The seed's tester, offline and with a scripted model. This imports the seed's own checked-in
 * source (written by us, like the harness), never a tree a run produced: those run only in containers.
 */
import { describe, expect, it } from "vitest";
import type { ArenaTestView, Json, LlmRequest, LlmResponse, ProposeRequest, SolveContext } from "@evolve/contract";
import { propose } from "../../seed-agent/tester/index.js";
import { seededRandom } from "../../sandbox/src/index.js";

function request(task: string, perRound: number, suite: ArenaTestView[] = [], visible: Json[] = []): ProposeRequest {
  return {
    task: { name: task, description: `the ${task} task`, metric: "score" },
    proposal: { description: "one instance", perRound, maxBytes: 4096 },
    round: 1,
    generation: { id: "t0001", parent: "t0000" },
    seed: 3,
    visible,
    suite,
    population: [{ id: "g0001", failing: suite.filter((t) => t.failedBy > 0).map((t) => t.id) }],
  };
}

function context(seed: number, task: string, llm?: (r: LlmRequest) => Promise<LlmResponse>): SolveContext & { logs: string[] } {
  const logs: string[] = [];
  return {
    task,
    seed,
    deadline: Date.now() + 60_000,
    random: seededRandom(seed),
    log: (m) => logs.push(m),
    logs,
    llm: llm === undefined
      ? { available: false, complete: () => Promise.reject(Object.assign(new Error("offline"), { code: "unavailable" })) }
      : { available: true, complete: llm },
  };
}

const test = (id: string, proposal: Json, failedBy = 0): ArenaTestView => ({ id, proposal, passedBy: 1, failedBy });
const answer = (content: string): LlmResponse => ({ content, toolCalls: [], finishReason: "stop", promptTokens: 1, completionTokens: 1 });

describe("the seed tester offline", () => {
  it("proposes email addresses: at most perRound, distinct, none the visible split or the suite holds", async () => {
    const visible = [{ id: "visible-1", addresses: ['"john doe"@example.com', "user@[192.168.0.1]"], labels: [true, true] }];
    const suite = [test("arena-t0000-1", { address: "a..b@example.com" })];
    for (const seed of [1, 2, 3, 4, 5]) {
      const out = await propose(request("email-validation", 12, suite, visible), context(seed, "email-validation"));
      expect(out.length).toBe(12);
      const addresses = out.map((p) => (p as { address: unknown }).address);
      for (const p of out) expect(Object.keys(p as object)).toEqual(["address"]);
      for (const a of addresses) expect(typeof a).toBe("string");
      expect(new Set(addresses).size).toBe(addresses.length);
      for (const held of ['"john doe"@example.com', "user@[192.168.0.1]", "a..b@example.com"]) expect(addresses).not.toContain(held);
    }
    expect(await propose(request("email-validation", 3), context(1, "email-validation"))).toHaveLength(3);
    expect(await propose(request("email-validation", 0), context(1, "email-validation"))).toEqual([]);
  });

  it("proposes snake boards of sides 5..20 with integer seeds, favouring sizes some candidate fails, none repeated", async () => {
    const failing = test("arena-t0000-2", { width: 7, height: 5, seed: 99 }, 1);
    const passed = test("arena-t0000-3", { width: 20, height: 20, seed: 1 }, 0);
    const visible = [{ id: "game-1", width: 10, height: 10, seed: 11, maxSteps: 200, target: 25 }];
    const out = await propose(request("snake", 40, [failing, passed], visible), context(7, "snake"));
    expect(out).toHaveLength(40);
    for (const p of out) {
      const b = p as { width: number; height: number; seed: number };
      expect(Object.keys(b).sort()).toEqual(["height", "seed", "width"]);
      for (const n of [b.width, b.height]) expect(Number.isInteger(n) && n >= 5 && n <= 20).toBe(true);
      expect(Number.isInteger(b.seed)).toBe(true);
    }
    const keys = out.map((p) => JSON.stringify(p));
    expect(new Set(keys).size).toBe(40);
    expect(keys).not.toContain(JSON.stringify({ width: 7, height: 5, seed: 99 }));
    // Half the boards (followFailing 0.5) copy the failed test's size; odd and tiny sides dominate the rest.
    const likeFailing = out.filter((p) => (p as { width: number }).width === 7 && (p as { height: number }).height === 5).length;
    expect(likeFailing).toBeGreaterThanOrEqual(10);
    const odd = out.flatMap((p) => [(p as { width: number }).width, (p as { height: number }).height]).filter((n) => n % 2 === 1).length;
    expect(odd).toBeGreaterThan(40);
  });

  it("is deterministic by seed, and differs between seeds", async () => {
    for (const task of ["email-validation", "snake"]) {
      const a = await propose(request(task, 8), context(11, task));
      const b = await propose(request(task, 8), context(11, task));
      const c = await propose(request(task, 8), context(12, task));
      expect(a).toEqual(b);
      expect(a).not.toEqual(c);
    }
  });

  it("proposes nothing for a task it does not know", async () => {
    expect(await propose(request("circle-packing", 8), context(1, "circle-packing"))).toEqual([]);
  });
});

describe("the seed tester with a model", () => {
  it("takes the model's fenced JSON array, drops what the suite holds, and tops up from the offline list", async () => {
    const prompts: string[] = [];
    const llm = async (r: LlmRequest): Promise<LlmResponse> => {
      prompts.push(r.messages.map((m) => m.content).join("\n"));
      return answer('Here:\n```json\n[{"address":"model@example.com"},{"address":"a..b@example.com"},{"address":"model@example.com"}]\n```');
    };
    const suite = [test("arena-t0000-1", { address: "a..b@example.com" }, 1)];
    const out = await propose(request("email-validation", 4, suite), context(1, "email-validation", llm));
    expect(out[0]).toEqual({ address: "model@example.com" });
    expect(out).toHaveLength(4);
    expect(out.filter((p) => JSON.stringify(p) === '{"address":"a..b@example.com"}')).toEqual([]);
    expect(prompts[0]).toContain("the email-validation task");
    expect(prompts[0]).toContain("a..b@example.com");
  });

  it("falls back to the offline list when the model fails or answers junk", async () => {
    const offline = await propose(request("snake", 5), context(4, "snake"));
    const junk = await propose(request("snake", 5), context(4, "snake", async () => answer("```json\n[{ not json\n```")));
    const down = await propose(request("snake", 5), context(4, "snake", async () => Promise.reject(Object.assign(new Error("down"), { code: "endpoint_failed" }))));
    expect(junk).toEqual(offline);
    expect(down).toEqual(offline);
  });
});
