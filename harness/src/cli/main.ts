/**
 * `evolve <command> [options]`: parses arguments strictly (an unknown command or option
 * is one clear line and exit 2), runs the command, and turns harness errors into a message
 * and a hint instead of a stack trace.
 */
import { parseArgs } from "node:util";
import { EvolveError } from "../kernel/index.js";
import type { CliCommand } from "./command.js";
import { commands } from "./commands/index.js";

const USAGE_EXIT = 2;

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

export async function main(argv: string[], io = { out: (l: string) => console.log(l), err: (l: string) => console.error(l) }): Promise<number> {
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
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: { ...command.options, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  } catch (error) {
    io.err(`evolve ${name}: ${(error as Error).message.split("\n")[0]} (see evolve ${name} --help)`);
    return USAGE_EXIT;
  }
  if (parsed.values["help"]) {
    io.out(commandHelp(command));
    return 0;
  }
  const { min, max, names } = command.positionals;
  if (parsed.positionals.length < min || parsed.positionals.length > max) {
    io.err(`evolve ${name}: expected ${names || "no arguments"}, got ${parsed.positionals.length === 0 ? "none" : parsed.positionals.join(" ")} (see evolve ${name} --help)`);
    return USAGE_EXIT;
  }
  try {
    return await command.run({ values: parsed.values, positionals: parsed.positionals, out: io.out, err: io.err });
  } catch (error) {
    if (error instanceof EvolveError) {
      io.err(`evolve ${name}: ${error.message}`);
      if (error.hint) io.err(`  what to do: ${error.hint}`);
      return command.usageErrors?.includes(error.code) === true ? USAGE_EXIT : 1;
    }
    io.err(`evolve ${name}: internal error: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env["EVOLVE_DEBUG"]) io.err(error instanceof Error ? (error.stack ?? "") : "");
    else io.err("  set EVOLVE_DEBUG=1 for the stack trace, and please report it");
    return 1;
  }
}
