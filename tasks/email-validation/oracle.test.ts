import { describe, expect, it } from "vitest";
import { judgeProposals } from "../../harness/src/arena/index.js";
import { loadTask, type Task } from "../../harness/src/evaluation/index.js";
import { isValidAddress } from "./rules.js";

const task: Task = await loadTask(new URL(".", import.meta.url).pathname);
const oracle = task.oracle!;

describe("email-validation oracle", () => {
  it("labels a proposed address with the reference rules, as an instance the grader accepts", async () => {
    for (const address of ["simple@example.com", "user@localhost", '"a\\"b"@example.org', "x@[192.168.0.01]", `${"a".repeat(64)}@example.com`]) {
      const judged = await oracle.judge(oracle.proposalSchema.parse({ address }), "arena-t0001-1");
      expect(judged).toMatchObject({ ok: true, instance: { id: "arena-t0001-1", addresses: [address], labels: [isValidAddress(address)] } });
      if (judged.ok) expect(task.grader.instanceSchema.safeParse(judged.instance).success).toBe(true);
    }
  });

  it("refuses other shapes in its schema: empty, over 254 characters, extra keys, not a string", () => {
    for (const bad of [{ address: "" }, { address: "a".repeat(255) }, { address: "a@b.co", label: true }, { address: 5 }, "a@b.co"])
      expect(oracle.proposalSchema.safeParse(bad).success).toBe(false);
    expect(oracle.limits).toEqual({ perRound: 8, maxBytes: 512 });
  });

  it("judges through the bounded worker like an arena run does", async () => {
    const verdicts = await judgeProposals(task, [{ address: "user@example.c0m" }, { address: "two@@example.com" }, { address: "" }], { idPrefix: "arena-t0002" });
    expect(verdicts.map((v) => (v.outcome === "accepted" ? v.instance["labels"] : v.code))).toEqual([[true], [false], "schema"]);
  });
});
