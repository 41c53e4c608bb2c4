/** The CLI's promises that hold for every command: help, strict arguments, clear failures. */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { commands } from "../../harness/src/cli/commands/index.js";

const exec = promisify(execFile);
const BIN = resolve(import.meta.dirname, "../../bin/evolve.js");

async function evolve(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("evolve CLI", () => {
  it("lists every command in its help", async () => {
    const { code, stdout } = await evolve(["--help"]);
    expect(code).toBe(0);
    for (const command of commands) expect(stdout).toContain(command.name);
  });

  it.each(commands.map((c) => c.name))("gives help for %s", async (name) => {
    const { code, stdout } = await evolve([name, "--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/usage: evolve/);
  });

  it("refuses an unknown command in one line", async () => {
    const { code, stderr } = await evolve(["frobnicate"]);
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("unknown command 'frobnicate'");
  });

  it("refuses an unknown option in one line", async () => {
    const { code, stderr } = await evolve(["doctor", "--frobnicate"]);
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("--frobnicate");
  });

  it("says where it looked and what to do when no engine answers, without a stack trace", async () => {
    const { code, stdout, stderr } = await evolve(["doctor"], { DOCKER_HOST: "unix:///nonexistent/docker.sock" });
    expect(code).toBe(1);
    const all = stdout + stderr;
    expect(all).toContain("unix:///nonexistent/docker.sock");
    expect(all).toMatch(/fix: .*(start|DOCKER_HOST)/);
    expect(all).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
  });

  it("clean reports what it removed", async () => {
    const { code, stdout } = await evolve(["clean"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/removed \d+ containers? and \d+ volumes?/);
  });
});
