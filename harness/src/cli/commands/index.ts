/** Every subcommand, in the order `evolve --help` lists them. */
import type { CliCommand } from "../command.js";
import { cat } from "./cat.js";
import { check } from "./check.js";
import { clean } from "./clean.js";
import { diff } from "./diff.js";
import { doctor } from "./doctor.js";
import { lineage } from "./lineage.js";
import { approve, reject } from "./decisions.js";
import { create } from "./new.js";
import { ls } from "./ls.js";
import { pending } from "./pending.js";
import { replay } from "./replay.js";
import { report } from "./report.js";
import { resume } from "./resume.js";
import { run } from "./run.js";
import { show } from "./show.js";
import { tree } from "./tree.js";
import { watch } from "./watch.js";

export const commands: CliCommand[] = [run, resume, create, check, ls, tree, show, diff, lineage, cat, watch, pending, approve, reject, replay, report, doctor, clean];
