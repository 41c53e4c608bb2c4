/**
 * The command table (harness/src/cli/commands/index.ts) names each command and its one-line
 * summary so `evolve --help` loads no command; each entry loads the command of that name,
 * whose own summary (the first line of `evolve <name> --help`) is the same line.
 */
import { describe, expect, it } from "vitest";
import { commands } from "../../harness/src/cli/commands/index.js";

describe("the command table", () => {
  it.each(commands.map((c) => [c.name, c] as const))("%s loads the command of that name and summary", async (name, entry) => {
    const command = await entry.load();
    expect(command.name).toBe(name);
    expect(command.summary).toBe(entry.summary);
  });

  it("names each command once", () => {
    expect(new Set(commands.map((c) => c.name)).size).toBe(commands.length);
    expect(commands.length).toBeGreaterThan(15);
  });
});
