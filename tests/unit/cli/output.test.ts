import { assertEquals } from "../../helpers/assert.ts";
import { ReaderGone, reportError, table } from "../../../lib/cli/output.ts";
import { writeAllSync } from "../../../lib/platform/bytes.ts";
import { SCHEMA_VERSION } from "../../../lib/version.ts";

const OUTPUT_URL = new URL("../../../lib/cli/output.ts", import.meta.url).href;
const ERRORS_URL = new URL("../../../lib/errors.ts", import.meta.url).href;

/** Runs `body` in a fresh `deno eval` with `reportError` and `SkiffError` imported. */
async function evalOutput(body: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = `import { Output, reportError } from ${JSON.stringify(OUTPUT_URL)};
import { SkiffError } from ${JSON.stringify(ERRORS_URL)};
${body}`;
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", script],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const decoder = new TextDecoder();
  return {
    code: result.code,
    stdout: decoder.decode(result.stdout),
    stderr: decoder.decode(result.stderr),
  };
}

Deno.test("table: aligns columns, no padding after the last one", () => {
  const text = table(["NAME", "STATE", "CMD"], [["web", "running", "bash -l"], [
    "a-much-longer-name",
    "exited",
    "",
  ]]);
  assertEquals(
    text,
    [
      "NAME                STATE    CMD",
      "web                 running  bash -l",
      "a-much-longer-name  exited",
    ].join("\n"),
  );
});

Deno.test("table: header only, and rows shorter than the header", () => {
  assertEquals(table(["A", "B"], []), "A  B");
  assertEquals(table(["ID", "NAME"], [["p1"]]), "ID  NAME\np1");
  assertEquals(table(["X"], [["long value"], ["y"]]), "X\nlong value\ny");
});

Deno.test("writeAllSync: retries short writes until every byte is written", () => {
  const written: number[] = [];
  const stream = {
    writeSync(p: Uint8Array): number {
      const n = Math.min(2, p.length);
      written.push(...p.subarray(0, n));
      return n;
    },
  };
  writeAllSync(stream, new Uint8Array([1, 2, 3, 4, 5]));
  assertEquals(written, [1, 2, 3, 4, 5]);
});

Deno.test("reportError: text shape for a SkiffError and its exit code", async () => {
  const r = await evalOutput(`
const code = reportError(new SkiffError("No pane named 'web'", { exit: "NOT_FOUND" }), false);
console.log(code);`);
  assertEquals(r.stderr, "skiff: No pane named 'web'\n");
  assertEquals(r.stdout, "3\n");
  assertEquals(r.code, 0);
});

Deno.test("reportError: JSON shape with details, on stderr only", async () => {
  const r = await evalOutput(`
const code = reportError(
  new SkiffError("Ambiguous", { exit: "CONFLICT", details: { candidates: ["a", "b"] } }),
  true,
);
console.log(code);`);
  assertEquals(r.stdout, "5\n");
  assertEquals(r.stderr.endsWith("\n"), true);
  assertEquals(r.stderr.trimEnd().includes("\n"), false, "one line");
  assertEquals(JSON.parse(r.stderr), {
    schema_version: SCHEMA_VERSION,
    error: { code: "conflict", exit: 5, message: "Ambiguous", candidates: ["a", "b"] },
  });
});

Deno.test("reportError: other errors are internal errors with exit 1", async () => {
  const r = await evalOutput(`
const a = reportError(new TypeError("boom"), false);
const b = reportError("plain", true);
console.log(a, b);`);
  assertEquals(r.stdout, "1 1\n");
  const [text, json] = r.stderr.trimEnd().split("\n");
  assertEquals(text, "skiff: Internal error: boom");
  assertEquals(JSON.parse(json), {
    schema_version: SCHEMA_VERSION,
    error: { code: "error", exit: 1, message: "Internal error: plain" },
  });
});

Deno.test("Output: JSON results on stdout with schema_version first; text suppressed", async () => {
  const r = await evalOutput(`
const json = new Output(true);
json.line("hidden");
json.notice("hidden too");
json.result({ panes: 2 }, () => console.log("text"));
const text = new Output(false);
text.line("shown");
text.notice("a notice");
text.result({ panes: 2 }, () => text.line("as text"));`);
  const lines = r.stdout.trimEnd().split("\n");
  assertEquals(lines.length, 3);
  assertEquals(Object.keys(JSON.parse(lines[0])), ["schema_version", "panes"]);
  assertEquals(JSON.parse(lines[0]), { schema_version: SCHEMA_VERSION, panes: 2 });
  assertEquals(lines.slice(1), ["shown", "as text"]);
  assertEquals(r.stderr, "a notice\n");
});

Deno.test("no command writes to Deno.stdout or Deno.stderr itself: a closed pipe must end it quietly", async () => {
  // The dashboard and attach draw on a terminal, never into a pipe.
  const allowed = ["lib/cli/output.ts", "lib/dash/", "lib/client/attach.ts"];
  const root = new URL("../../../", import.meta.url).pathname;
  const offenders: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(root + dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (path.endsWith(".ts") && !allowed.some((a) => path.startsWith(a))) {
        const text = await Deno.readTextFile(root + path);
        if (/Deno\.std(out|err)\.write|\(Deno\.std(out|err),/.test(text)) offenders.push(path);
      }
    }
  };
  await walk("cmd");
  await walk("lib");
  assertEquals(offenders, [], "write through lib/cli's stdout and stderr instead");
});

Deno.test("reportError: a reader that went away is exit 0, and nothing is printed", () => {
  assertEquals(reportError(new ReaderGone("stdout"), false), 0);
  assertEquals(reportError(new ReaderGone("stdout"), true), 0);
});
