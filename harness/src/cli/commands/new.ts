/** `evolve new task|agent DIR`: a working task or agent folder to start from. */
import { cp, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { basename, join, relative, resolve } from "node:path";
import { z } from "zod";
import { EvolveError, PACKAGE_ROOT } from "../../kernel/index.js";
import type { CliCommand } from "../command.js";
import { UsageError } from "../usage.js";

const TEMPLATES = resolve(PACKAGE_ROOT, "templates");
const SEED_AGENT = resolve(PACKAGE_ROOT, "seed-agent");
const TASK_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const NewArgs = z.object({
  kind: z.enum(["task", "agent"], { error: (issue) => `expected task or agent, got ${JSON.stringify(issue.input)}` }),
  dir: z.string().min(1),
  blank: z.boolean(),
});

/** A folder to write into: absent, or empty. Never overwrite a user's files. */
async function claimFolder(dir: string): Promise<void> {
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw new EvolveError("invalid_options", `cannot use ${dir} (${error.message})`);
  });
  if (entries.length > 0) {
    throw new EvolveError("invalid_options", `${dir} exists and is not empty`, { hint: "name a new folder; nothing was written" });
  }
  await mkdir(dir, { recursive: true });
}

/** The task template with the folder's name in task.json (the name must equal the folder's). */
async function writeTask(dir: string): Promise<string[]> {
  const name = basename(dir);
  if (!TASK_NAME.test(name)) {
    throw new EvolveError("invalid_options", `the folder name "${name}" is the task's name and must be kebab-case (a-z, 0-9, single dashes)`, {
      hint: "choose a folder name like my-task; nothing was written",
    });
  }
  await claimFolder(dir);
  const source = join(TEMPLATES, "task");
  await cp(source, dir, { recursive: true });
  const manifest = z.record(z.string(), z.unknown()).parse(JSON.parse(await readFile(join(source, "task.json"), "utf8")));
  await writeFile(join(dir, "task.json"), `${JSON.stringify({ ...manifest, name }, null, 2)}\n`);
  return (await readdir(dir)).sort();
}

async function writeAgent(dir: string, blank: boolean): Promise<string[]> {
  await claimFolder(dir);
  await cp(blank ? join(TEMPLATES, "agent") : SEED_AGENT, dir, { recursive: true });
  const files = await readdir(dir, { recursive: true, withFileTypes: true });
  return files.filter((f) => f.isFile()).map((f) => relative(dir, join(f.parentPath, f.name))).sort();
}

/**
 * What the default agent can and cannot do with a task it has never seen, said when the task
 * is written: the seed's solve knows only the built-in tasks, so without a model or an agent
 * of your own every instance scores 0 and nothing improves.
 */
export function newTaskAgentNote(task: string): string[] {
  return [
    `the default agent (seed-agent/) knows only the built-in tasks: on ${task} its solve throws, so every instance scores 0;`,
    "  offline its meta agent only tunes knobs and cannot write a solver. Either give a model (--model, with OPENAI_BASE_URL),",
    `  whose meta agent writes one from that feedback, or  evolve new agent my-agent,  add a case for "${task}" to`,
    "  my-agent/task/index.ts, and run with --agent my-agent",
  ];
}

export const create: CliCommand = {
  name: "new",
  summary: "write a minimal working task or agent folder to start your own from",
  help: `usage: evolve new task DIR       a task: task.json, visible.json, heldout.json, a commented grader.ts
       evolve new agent DIR      an agent: a copy of the seed agent (task/ and meta/, offline strategy included)
  --blank     (agent) a small blank template with both entry points instead of the seed's copy
  DIR must not exist or be empty. A task's folder name is its name (kebab-case).`,
  options: { blank: { type: "boolean" } },
  positionals: { min: 2, max: 2, names: "task|agent DIR" },
  async run({ values, positionals, out }) {
    const parsed = NewArgs.safeParse({ kind: positionals[0], dir: positionals[1], blank: values["blank"] === true });
    if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? "bad arguments");
    const { kind, blank } = parsed.data;
    const dir = resolve(parsed.data.dir);
    const shown = parsed.data.dir;
    if (kind === "task") {
      if (blank) throw new UsageError("--blank is for `evolve new agent`");
      const files = await writeTask(dir);
      out(`wrote task ${basename(dir)} in ${dir}: ${files.join(", ")}`);
      out(`next: edit grader.ts and the instances, then  evolve check --task ${shown}  and  evolve run --task ${shown}`);
      for (const line of newTaskAgentNote(basename(dir))) out(line);
      return 0;
    }
    const files = await writeAgent(dir, blank);
    out(`wrote ${blank ? "a blank agent" : "a copy of the seed agent"} in ${dir}: ${files.length} files (${files.filter((f) => f.endsWith("index.ts")).join(", ")})`);
    if (!blank) out("the seed's task/index.ts dispatches on ctx.task: add a case (and a solver) for your own task there");
    out(`next: evolve check --agent ${shown}  and  evolve run --agent ${shown} --task ...`);
    return 0;
  },
};
