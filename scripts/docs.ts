/**
 * `deno task docs`: writes docs/cli.md, the command reference, from the
 * command table (cmd/mod.ts and each command's spec), so it says exactly what
 * `--help` prints. `deno task docs --check` only says whether the file is out
 * of date. tests/unit/docs/cli_reference.test.ts fails while it is.
 *
 * @module
 */

import { join, relative } from "node:path";
import { COMMANDS } from "../cmd/loaders.ts";
import { renderReference } from "../lib/cli/reference.ts";

/** The repository's root. */
export const ROOT: string = new URL("../", import.meta.url).pathname;

/** Where the reference goes, from the root. */
export const CLI_PAGE = "docs/cli.md";

const INTRO = `
<!-- Written by 'deno task docs' from the command table; edit the specs in cmd/, not this file. -->

Every \`skiff\` command and subcommand, with its options, examples and exit codes exactly as
\`skiff COMMAND --help\` prints them. Every command also takes \`--json\` and \`--help\`, before or
after the command (\`skiff --json ls\`, \`skiff ls --json\`). What each exit code means in general,
and the shape of JSON output and errors, is in [Exit codes and JSON](exit-codes.md).
`;

/** Formats Markdown as `deno fmt` does with the repository's settings, so the page passes it. */
async function formatted(markdown: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext=md", "-"],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(markdown));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  if (code !== 0) throw new Error(`deno fmt failed: ${new TextDecoder().decode(stderr).trim()}`);
  return new TextDecoder().decode(stdout);
}

/** The text docs/cli.md should hold. */
export async function cliReference(): Promise<string> {
  return await formatted(await renderReference(COMMANDS, { intro: INTRO }));
}

if (import.meta.main) {
  const page = join(ROOT, CLI_PAGE);
  const where = relative(Deno.cwd(), page) || CLI_PAGE;
  const want = await cliReference();
  const have = await Deno.readTextFile(page).catch(() => undefined);
  if (Deno.args.includes("--check")) {
    if (have !== want) {
      console.error(`docs: ${where} is out of date. Run 'deno task docs'.`);
      Deno.exit(1);
    }
    console.log(`docs: ${where} is up to date`);
  } else if (have === want) {
    console.log(`docs: ${where} is up to date`);
  } else {
    await Deno.writeTextFile(page, want);
    console.log(`docs: wrote ${where}`);
  }
}
