/** Every subcommand, in the order `evolve --help` lists them. */
import type { CliCommand } from "../command.js";
import { clean } from "./clean.js";
import { doctor } from "./doctor.js";

export const commands: CliCommand[] = [doctor, clean];
