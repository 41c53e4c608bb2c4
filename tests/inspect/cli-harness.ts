/** Runs `evolve` commands in-process through the real argument parser, capturing stdout and stderr. */
import { main } from "../../harness/src/cli/main.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `evolve ...args`, output captured line by line. */
export async function evolve(...args: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}
