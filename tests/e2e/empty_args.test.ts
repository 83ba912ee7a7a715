/**
 * Issue 28, case 11: an empty argument is refused by the CLI itself, in the
 * argument's own name as `--help` gives it (PANE, NAME, KEY…), exit USAGE,
 * and never reaches skiffd to come back in the protocol's words; so is an
 * empty option value (`--name ''`), in the option's name, unless the option
 * says '' means something (`ledger update --ref ''` clears the ref). The
 * cases come from the command table, so a new command is covered by itself.
 */

import { assertEquals } from "../helpers/assert.ts";
import { BASH, withSkiff } from "../helpers/skiff.ts";
import { COMMANDS } from "../../cmd/loaders.ts";
import type { ArgSpec, CommandSpec } from "../../lib/cli/spec.ts";
import { pathExists } from "../../lib/platform/files.ts";

/** One command line with one empty argument, and the line it must print. */
interface EmptyCase {
  argv: string[];
  stderr: string;
}

/** A value for an argument that is not the empty one: one of its choices, else a word. */
function filler(spec: ArgSpec): string {
  return spec.choices?.[0] ?? "x";
}

/**
 * Every positional of every runnable command, each given as `''` in turn;
 * with `options`, every option that takes a word instead (numbers have a
 * line of their own), after the arguments the command needs.
 */
async function emptyCases(options = false): Promise<EmptyCase[]> {
  const cases: EmptyCase[] = [];
  const walk = (spec: CommandSpec, path: string[]) => {
    const args = spec.args ?? [];
    if (spec.run && options) {
      const needed = args.filter((arg) => arg.required).map(filler);
      for (const option of spec.options ?? []) {
        if (option.empty || option.type === "boolean" || option.type === "number") continue;
        cases.push({
          argv: [...path, ...needed, `--${option.name}`, ""],
          stderr: `skiff: Option '--${option.name}' is empty. See 'skiff ${
            path.join(" ")
          } --help'.\n`,
        });
      }
    }
    if (spec.run && !options) {
      args.forEach((arg, i) => {
        if (arg.empty) return;
        const argv = [...path, ...args.map((other, j) => j === i ? "" : filler(other))];
        cases.push({
          argv,
          stderr: `skiff: Argument ${arg.name} is empty. See 'skiff ${path.join(" ")} --help'.\n`,
        });
      });
    }
    for (const sub of spec.subcommands ?? []) walk(sub, [...path, sub.name]);
  };
  for (const entry of COMMANDS) walk(await entry.load(), [entry.name]);
  return cases;
}

Deno.test("issue 28, case 11: every command refuses an empty argument in its own name, exit 2, before skiffd is asked", async () => {
  const cases = await emptyCases();
  const words = cases.map((c) => c.argv.slice(0, 2).join(" "));
  // The cases the issue names are among those the table gives.
  for (const named of ["kill", "rename x", "worktree rm", "send x", "capture"]) {
    assertEquals(words.some((w) => w.startsWith(named)), true, `no case for ${named}`);
  }
  await withSkiff(async (skiff) => {
    // A few at a time: each is a process of its own.
    for (let i = 0; i < cases.length; i += 4) {
      await Promise.all(
        cases.slice(i, i + 4).map(async ({ argv, stderr }) => {
          const result = await skiff.run(argv);
          assertEquals(
            [result.code, result.stdout, result.stderr],
            [2, "", stderr],
            `skiff ${argv.map((w) => `'${w}'`).join(" ")}`,
          );
        }),
      );
    }
    // Refused before any skiffd was started to ask.
    assertEquals(pathExists(skiff.socket), false, "no command started skiffd");

    // With --json, the same refusal as the error object.
    const json = await skiff.run(["kill", "", "--json"]);
    assertEquals(json.code, 2);
    const error = JSON.parse(json.stderr).error;
    assertEquals([error.code, error.message], [
      "usage",
      "Argument PANE is empty. See 'skiff kill --help'.",
    ]);
  });
});

Deno.test("issue 28, case 11: every command refuses an empty option value in the option's name, exit 2, before skiffd is asked", async () => {
  const cases = await emptyCases(true);
  const words = cases.map((c) => c.argv.join(" "));
  // The options the gap was found with are among those the table gives.
  for (const named of ["new --name", "new --project", "events --pane", "ledger add --pane"]) {
    assertEquals(words.some((w) => w.startsWith(named)), true, `no case for ${named}`);
  }
  await withSkiff(async (skiff) => {
    for (let i = 0; i < cases.length; i += 4) {
      await Promise.all(
        cases.slice(i, i + 4).map(async ({ argv, stderr }) => {
          const result = await skiff.run(argv);
          assertEquals(
            [result.code, result.stdout, result.stderr],
            [2, "", stderr],
            `skiff ${argv.map((w) => `'${w}'`).join(" ")}`,
          );
        }),
      );
    }
    assertEquals(pathExists(skiff.socket), false, "no command started skiffd");
    // --name= is the same empty value.
    const inline = await skiff.run(["new", "--name=", "--", ...BASH]);
    assertEquals([inline.code, inline.stderr], [
      2,
      "skiff: Option '--name' is empty. See 'skiff new --help'.\n",
    ]);
  });
});

Deno.test("issue 28, case 11: mark's empty KEY and send's blank TEXT are named as the kit names an empty argument", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "web", "--", ...BASH]);
    const mark = await skiff.run(["mark", "web", "=1"]);
    assertEquals([mark.code, mark.stderr], [
      2,
      "skiff: Argument KEY[=VALUE] has an empty KEY ('=1'). See 'skiff mark --help'.\n",
    ]);
    const blank = await skiff.run(["send", "web", "   "]);
    assertEquals([blank.code, blank.stderr], [
      2,
      "skiff: Argument TEXT holds only whitespace. See 'skiff send --help'.\n",
    ]);
    const stdin = await skiff.run(["send", "web", "-"], { stdin: "" });
    assertEquals([stdin.code, stdin.stderr], [
      2,
      "skiff: TEXT from stdin is empty. See 'skiff send --help'.\n",
    ]);
    // A mark with an empty value is a mark all the same.
    await skiff.ok(["mark", "web", "role="]);
    assertEquals((await skiff.ok(["mark", "web"])).trim(), "role");
  });
});
