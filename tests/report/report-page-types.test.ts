/**
 * The report page's script is TypeScript checked against the browser's library: the root
 * tsconfig.json leaves harness/src/report/page out (it has no DOM types), so this test is what
 * makes `npm test` fail on a type error there. It also checks what page-script.ts emits.
 */
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { pageScript } from "../../harness/src/report/index.js";

const PAGE_DIR = join(import.meta.dirname, "../../harness/src/report/page");

/** Every diagnostic of the page's own program, one line each. */
function pageDiagnostics(): string[] {
  const configPath = join(PAGE_DIR, "tsconfig.json");
  const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  if (read.error) return [ts.flattenDiagnosticMessageText(read.error.messageText, "\n")];
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, PAGE_DIR, undefined, configPath);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  return [...parsed.errors, ...ts.getPreEmitDiagnostics(program)].map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : "";
    return where + ts.flattenDiagnosticMessageText(d.messageText, "\n");
  });
}

describe("report page script", () => {
  it("type-checks with the project's strict options and the DOM library, without Node's types", () => {
    const configPath = join(PAGE_DIR, "tsconfig.json");
    const options = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, (p) => ts.sys.readFile(p)).config, ts.sys, PAGE_DIR).options;
    expect(options).toMatchObject({ strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, types: [] });
    expect(options.lib).toContain("lib.dom.d.ts");
    expect(pageDiagnostics()).toEqual([]);
  }, 60_000);

  it("is emitted once per process as one function expression with no imports left", async () => {
    const script = await pageScript();
    expect(await pageScript()).toBe(script);
    expect(script).toMatch(/^("use strict";\n)?\(\(\) => \{/);
    expect(script).not.toMatch(/\brequire\(|^\s*import\s|^\s*export\s|<\/script|<!--/m);
    expect(script).not.toMatch(/:\s*(NodeView|ReportData|PackingView|PageId)\b/);
    // Agent text reaches the DOM as text only: no HTML-parsing sink anywhere in the page.
    expect(script).toContain("textContent");
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment|\beval\(|new Function/);
  });
});
