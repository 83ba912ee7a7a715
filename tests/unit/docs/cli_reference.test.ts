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

Deno.test("docs/cli.md is what the command table makes (else run 'deno task docs')", async () => {
  const have = await Deno.readTextFile(join(ROOT, CLI_PAGE));
  const want = await cliReference();
  if (have !== want) {
    const a = have.split("\n");
    const b = want.split("\n");
    const line = a.findIndex((text, i) => text !== b[i]);
    throw new Error(
      `${CLI_PAGE} is out of date (first difference at line ${line + 1}: ` +
        `${JSON.stringify(a[line])} should be ${JSON.stringify(b[line])}). ` +
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
