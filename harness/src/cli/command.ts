/** What every `evolve` subcommand is: a name, its help, its options, and what it does. */
import type { ParseArgsConfig } from "node:util";
import type { ErrorCode } from "../kernel/index.js";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

export interface CommandInput {
  /** Parsed option values, by long name (strings and booleans as parseArgs gives them). */
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
  /** Where human output goes (stdout); errors go to stderr. */
  out: (line: string) => void;
  err: (line: string) => void;
}

export interface CliCommand {
  name: string;
  /** One line for `evolve --help`. */
  summary: string;
  /** The usage line(s) and option descriptions for `evolve <name> --help`. */
  help: string;
  options: OptionSpec;
  /** How many positionals the command takes. */
  positionals: { min: number; max: number; names: string };
  /** Error codes that mean the arguments name something that is not there (exit 2, not 1). */
  usageErrors?: readonly ErrorCode[];
  /** Returns the exit code. */
  run(input: CommandInput): Promise<number>;
}
