/**
 * Every subcommand, in the order `evolve --help` lists them: its name and summary here, the
 * rest in its own module, loaded when the command is named. `evolve --help` loads none of
 * them, and `evolve ls` loads what ls imports, not what a run needs
 * (tests/architecture/light-commands.test.ts). tests/cli/command-table.test.ts checks that
 * each summary here is the one its module gives.
 */
import type { CliCommand } from "../command.js";

export interface CommandEntry {
  name: string;
  /** One line for `evolve --help`. */
  summary: string;
  /** The command itself: its help, options and what it does. */
  load(): Promise<CliCommand>;
}

export const commands: readonly CommandEntry[] = [
  { name: "run", summary: "evolve an agent on a task (no options: the built-in default, offline, a few minutes)", load: async () => (await import("./run.js")).run },
  { name: "resume", summary: "continue a stopped or killed run from its archive (none lost, none duplicated)", load: async () => (await import("./resume.js")).resume },
  { name: "new", summary: "write a minimal working task or agent folder to start your own from", load: async () => (await import("./new.js")).create },
  { name: "check", summary: "check a task folder and/or an agent tree without starting a run; lists every problem", load: async () => (await import("./check.js")).check },
  { name: "ls", summary: "list runs: task, model, generations, pending approvals, best score, status", load: async () => (await import("./ls.js")).ls },
  { name: "tree", summary: "the archive of a run as a tree: scores, status, invalid reason, children", load: async () => (await import("./tree.js")).tree },
  { name: "show", summary: "one generation in words: lineage, scores per stage and split, failures, cost, timings, validation", load: async () => (await import("./show.js")).show },
  { name: "diff", summary: "unified diff of two generations' agent trees (default: against the parent)", load: async () => (await import("./diff.js")).diff },
  { name: "lineage", summary: "the chain from the seed to a generation: score deltas and a line on what changed", load: async () => (await import("./lineage.js")).lineage },
  { name: "cat", summary: "print a file of a generation's agent tree (its snapshot)", load: async () => (await import("./cat.js")).cat },
  { name: "watch", summary: "play a recorded episode (a snake game) of a generation in the terminal; nothing is re-run", load: async () => (await import("./watch.js")).watch },
  { name: "pending", summary: "children waiting for approval (run policy): scores against the parent's, diff stat, why", load: async () => (await import("./pending.js")).pending },
  {
    name: "approve",
    summary: "approve a child that waits for approval (run policy): it may then be a parent, live or after the run",
    load: async () => (await import("./decisions.js")).approve,
  },
  { name: "reject", summary: "reject a child that waits for approval (run policy): it is never a parent", load: async () => (await import("./decisions.js")).reject },
  {
    name: "replay",
    summary: "replay a lineage: rebuild snapshots, re-run self-modification with recorded LLM answers, re-score",
    load: async () => (await import("./replay.js")).replay,
  },
  { name: "report", summary: "write the run's self-contained HTML report (report.html in the run folder)", load: async () => (await import("./report.js")).report },
  {
    name: "doctor",
    summary: "check the Docker engines (version, runtimes, architecture, slots, runtime image) and the LLM configuration",
    load: async () => (await import("./doctor.js")).doctor,
  },
  { name: "clean", summary: "remove containers and volumes left by dead evolve sessions (--all: every one)", load: async () => (await import("./clean.js")).clean },
];
