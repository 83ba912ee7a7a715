/**
 * docs/cli.md is made from the command table by `deno task docs`; it must be
 * what the table makes now, and cover every command and subcommand.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { CLI_PAGE, cliReference, ROOT } from "../../../scripts/docs.ts";
import { COMMANDS } from "../../../cmd/loaders.ts";
import type { CommandSpec } from "../../../lib/cli/spec.ts";

function* commandPaths(spec: CommandSpec, path: string[]): Generator<string> {
  yield path.join(" ");
  for (const sub of spec.subcommands ?? []) {
    if (!sub.hidden) yield* commandPaths(sub, [...path, sub.name]);
  }
}

/**
 * Where `have` first differs from `want`, as a line for the failure: the
 * line's number from 1, what it is and what it should be (`(no line)` past
 * the end of the shorter, so that a page cut short or running on says so).
 */
function firstDifference(have: string, want: string): string {
  const a = have.split("\n");
  const b = want.split("\n");
  let line = 0;
  while (line < Math.max(a.length, b.length) && a[line] === b[line]) line++;
  const shown = (text: string | undefined) =>
    text === undefined ? "(no line)" : JSON.stringify(text);
  return `first difference at line ${line + 1}: ${shown(a[line])} should be ${shown(b[line])}`;
}

Deno.test("docs/cli.md: the failure names the first line that differs, at either end", () => {
  assertEquals(
    firstDifference("a\nb\nc", "a\nx\nc"),
    `first difference at line 2: "b" should be "x"`,
  );
  // One a prefix of the other: the first line past the shorter one.
  assertEquals(
    firstDifference("a\nb", "a\nb\nc"),
    `first difference at line 3: (no line) should be "c"`,
  );
  assertEquals(
    firstDifference("a\nb\nc", "a\nb"),
    `first difference at line 3: "c" should be (no line)`,
  );
});

Deno.test("docs/cli.md is what the command table makes (else run 'deno task docs')", async () => {
  const have = await Deno.readTextFile(join(ROOT, CLI_PAGE));
  const want = await cliReference();
  if (have !== want) {
    throw new Error(
      `${CLI_PAGE} is out of date (${firstDifference(have, want)}). ` +
        `Run 'deno task docs' and commit the file.`,
    );
  }
});

Deno.test("docs/cli.md has a heading for every command and subcommand that --help lists", async () => {
  const page = await Deno.readTextFile(join(ROOT, CLI_PAGE));
  const headings = page.split("\n").filter((line) => /^#{2,3} skiff /.test(line))
    .map((line) => line.replace(/^#+ skiff /, ""));
  const paths: string[] = [];
  for (const entry of COMMANDS.filter((e) => !e.hidden)) {
    paths.push(...commandPaths(await entry.load(), [entry.name]));
  }
  assertEquals(headings, paths);
  assert(paths.includes("ledger add") && paths.includes("daemon upgrade"), "subcommands count");
});
