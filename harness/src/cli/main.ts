/**
 * `evolve <command> [options]`: parses arguments strictly, runs the command, and turns every
 * failure into words. One rule for exit codes: a wrong command line (unknown command or
 * option, a value out of range or of the wrong kind) is one line and exit 2; a harness
 * failure is its message, what to do, and exit 1; Ctrl-C is 130; a closed stdout is a
 * quiet 0. Never a stack trace (EVOLVE_DEBUG=1 shows one).
 */
import { parseArgs } from "node:util";
import { dirname } from "node:path";
import { EvolveError } from "../kernel/index.js";
import type { CliCommand, OptionSpec } from "./command.js";
import { commands } from "./commands/index.js";
import { exitWith, stdoutClosed, watchStdoutWhenOpened, writeStdout } from "./process-exit.js";
import { UsageError } from "./usage.js";

const USAGE_EXIT = 2;
const INTERRUPTED_EXIT = 130;

function topHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    "evolve: run self-rewriting agents safely in Docker containers",
    "",
    "usage: evolve <command> [options]      (evolve <command> --help for its options)",
    "",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
  ].join("\n");
}

function commandHelp(command: CliCommand): string {
  return `${command.summary}\n\n${command.help.trimEnd()}\n  -h, --help  show this help`;
}

/** `--generations -1` means the value -1, not an option named -1: joined as `--generations=-1`. */
export function joinNegativeValues(args: readonly string[], options: OptionSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const name = arg.startsWith("--") && !arg.includes("=") ? arg.slice(2) : null;
    if (name !== null && options[name]?.type === "string" && next !== undefined && /^-(\d|\.\d)/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** parseArgs' complaint in the CLI's words: which option, and what is wrong with it. */
function argumentProblem(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = (error as Error).message;
  const option = /'(?:-\w, )?(-{1,2}[^' ,]+)/.exec(message)?.[1] ?? "";
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option ${option}`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    return /argument missing|ambiguous/.test(message) ? `${option} expects a value` : `${option} takes no value`;
  }
  return message.split("\n")[0] ?? message;
}

type Io = { out: (line: string) => void; err: (line: string) => void };

export async function main(argv: string[], io: Io = { out: (l: string) => writeStdout(`${l}\n`), err: (l: string) => console.error(l) }): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(topHelp());
    return name === undefined ? USAGE_EXIT : 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.err(`evolve: unknown command '${name}' (commands: ${commands.map((c) => c.name).join(", ")})`);
    return USAGE_EXIT;
  }
  // Only the named command's module loads (commands/index.ts).
  const command = await entry.load();
  const usage = (what: string): number => {
    io.err(`evolve ${name}: ${what} (see evolve ${name} --help)`);
    return USAGE_EXIT;
  };
  const options = { ...command.options, help: { type: "boolean", short: "h" } } satisfies OptionSpec;
  let parsed;
  try {
    parsed = parseArgs({ args: joinNegativeValues(rest, options), options, allowPositionals: true, strict: true });
  } catch (error) {
    return usage(argumentProblem(error));
  }
  if (parsed.values["help"]) {
    io.out(commandHelp(command));
    return 0;
  }
  const { min, max, names } = command.positionals;
  if (parsed.positionals.length < min || parsed.positionals.length > max) {
    return usage(`expected ${names || "no arguments"}, got ${parsed.positionals.length === 0 ? "none" : parsed.positionals.join(" ")}`);
  }
  try {
    return await command.run({ values: parsed.values, positionals: parsed.positionals, out: io.out, err: io.err });
  } catch (error) {
    return await failed(name, command, error, io, usage);
  }
}

/**
 * A write the file system refused, met where no command expected it (a disk filling up mid-run).
 * The archive's words for it load only here, so `evolve --help` loads no folder but the kernel.
 */
async function refusedWrite(error: unknown): Promise<EvolveError | null> {
  const { unwritableArchive } = await import("../archive/index.js");
  return unwritableArchive(error, dirname((error as { path?: string }).path ?? "."), "other");
}

/** A command's failure in words, and its exit code. */
async function failed(name: string, command: CliCommand, error: unknown, io: Io, usage: (what: string) => number): Promise<number> {
  if (error instanceof UsageError) return usage(error.message);
  const known = error instanceof EvolveError ? error : await refusedWrite(error);
  if (known !== null) {
    io.err(`evolve ${name}: ${known.message}`);
    if (known.hint) io.err(`  what to do: ${known.hint}`);
    if (process.env["EVOLVE_DEBUG"] && error instanceof Error) io.err(error.stack ?? "");
    if (known.code === "interrupted") return INTERRUPTED_EXIT;
    return command.usageErrors?.includes(known.code) === true ? USAGE_EXIT : 1;
  }
  io.err(`evolve ${name}: internal error: ${error instanceof Error ? error.message : String(error)}`);
  if (process.env["EVOLVE_DEBUG"]) io.err(error instanceof Error ? (error.stack ?? "") : "");
  else io.err("  set EVOLVE_DEBUG=1 for the stack trace, and please report it");
  return 1;
}

/** The `evolve` process: run the command, then end with its code (0 when stdout was closed under it). */
export async function runCli(argv: string[]): Promise<void> {
  watchStdoutWhenOpened();
  const code = await main(argv);
  exitWith(stdoutClosed() ? 0 : code);
}
