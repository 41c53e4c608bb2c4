/**
 * The report page's script as the page embeds it: page/report-page.ts and the files of page/
 * it imports, bundled with their types stripped, wrapped in a function so nothing leaks into
 * the page's globals. The page is type-checked ahead of time (page/tsconfig.json); here it
 * is only bundled, with esbuild (the transformer tsx already runs the harness with): about
 * 0.1 s and 20 MB once per process, where loading the TypeScript compiler into the harness
 * would cost 0.7 s and 80 MB at the end of every run. The first call does the work; later calls share its result.
 */
import { dirname, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const SOURCE = new URL("./page/report-page.ts", import.meta.url);
const PAGE_DIR = dirname(fileURLToPath(SOURCE));

let cached: Promise<string> | null = null;

/** The page script's JavaScript, ready to go between <script> and </script>. */
export function pageScript(): Promise<string> {
  cached ??= emit().catch((error: unknown) => {
    cached = null;
    throw error;
  });
  return cached;
}

async function emit(): Promise<string> {
  const esbuild = await import("esbuild");
  // Bundled from the page's own folder: its parts import each other; the host's files only as types (erased).
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(SOURCE)],
    // Paths in the output's comments and the metafile are relative to the page's folder, wherever evolve runs.
    absWorkingDir: PAGE_DIR,
    bundle: true,
    write: false,
    metafile: true,
    format: "iife",
    target: "es2020",
    platform: "browser",
    logLevel: "silent",
  });
  const outside = Object.keys(result.metafile.inputs).filter((input) => !resolve(PAGE_DIR, input).startsWith(`${PAGE_DIR}${sep}`));
  if (outside.length > 0) throw new Error(`report page script imports ${outside.join(", ")}; it may import its own folder and types only`);
  const code = result.outputFiles[0]?.text ?? "";
  // Inside an inline <script>, these would end the element or open a comment state early.
  if (/<\/script|<!--/i.test(code)) throw new Error("report page script contains </script or <!--");
  if (/\brequire\(/.test(code)) throw new Error("report page script requires a module; it may import its own folder and types only");
  return code;
}
