/**
 * The report page's script as the page embeds it: page/report-page.ts with its types
 * stripped, wrapped in a function so nothing leaks into the page's globals. The page
 * is type-checked ahead of time (page/tsconfig.json); here it is only transformed, with
 * esbuild (the transformer tsx already runs the harness with): about 0.1 s and 20 MB once per
 * process, where loading the TypeScript compiler into the harness would cost 0.7 s and 80 MB
 * at the end of every run. The first call does the work; later calls share its result.
 */
import { readFile } from "node:fs/promises";

const SOURCE = new URL("./page/report-page.ts", import.meta.url);

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
  const [source, esbuild] = await Promise.all([readFile(SOURCE, "utf8"), import("esbuild")]);
  const { code } = await esbuild.transform(source, {
    loader: "ts",
    format: "iife",
    target: "es2020",
    sourcefile: "report-page.ts",
    logLevel: "silent",
  });
  // Inside an inline <script>, these would end the element or open a comment state early.
  if (/<\/script|<!--/i.test(code)) throw new Error("report page script contains </script or <!--");
  // esbuild turns a value import into require(), which no page has: the page may import types only.
  if (/\brequire\(/.test(code)) throw new Error("report page script imports a value; it may import types only");
  return code;
}
