/**
 * Every `skiff …` line of the shell examples in README.md and docs/*.md
 * parses against the real command table, so an example never shows a command
 * or an option that does not exist. Nothing is run.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { ROOT } from "../../helpers/skiff.ts";
import { COMMANDS } from "../../../cmd/loaders.ts";
import type { CommandSpec } from "../../../lib/cli/spec.ts";
import {
  checkCommand,
  type DocCommand,
  docCommands,
  exampleCommands,
  shellCommands,
  shellLines,
} from "../../helpers/doc_examples.ts";

/** README.md and every page of docs/, by their names from the root. */
function docs(): string[] {
  const pages = [...Deno.readDirSync(join(ROOT, "docs"))]
    .filter((entry) => entry.isFile && entry.name.endsWith(".md"))
    .map((entry) => `docs/${entry.name}`).sort();
  return ["README.md", ...pages];
}

/** The lines that do not parse, as `file:line: command: error`. */
async function failures(commands: DocCommand[]): Promise<string[]> {
  const failed: string[] = [];
  for (const command of commands) {
    const error = await checkCommand(COMMANDS, command.argv);
    if (error) failed.push(`${command.file}:${command.line}: ${command.text}: ${error}`);
  }
  return failed;
}

Deno.test("doc examples: a line is split as a shell splits it", () => {
  assertEquals(shellCommands(`skiff send web "fix it" --enter   # a comment`), [
    ["skiff", "send", "web", "fix it", "--enter"],
  ]);
  assertEquals(shellCommands("skiff wait a --until idle && skiff capture a | less; skiff ls &"), [
    ["skiff", "wait", "a", "--until", "idle"],
    ["skiff", "capture", "a"],
    ["less"],
    ["skiff", "ls"],
  ]);
  assertEquals(shellCommands(`SKIFF_X=1 A='b c' skiff ls --json 2>&1 > out.json`), [
    ["skiff", "ls", "--json"],
  ]);
  assertEquals(shellCommands(`skiff send p - --enter < task.md || echo "no"`), [
    ["skiff", "send", "p", "-", "--enter"],
    ["echo", "no"],
  ]);
  // A substitution is a value in its word, and its own command is checked too.
  assertEquals(shellCommands(`./skiff attach "$(./skiff new --name 'a b')"`), [
    ["./skiff", "attach", "X"],
    ["./skiff", "new", "--name", "a b"],
  ]);
  assertEquals(shellCommands("source <(skiff completions bash)"), [
    ["source", "X"],
    ["skiff", "completions", "bash"],
  ]);
  assertEquals(shellCommands(`echo 'a#b' "c\\"d" e\\ f`), [["echo", "a#b", 'c"d', "e f"]]);
});

Deno.test("doc examples: only shell blocks count, and a console block only after its prompt", () => {
  const markdown = [
    "Text with `skiff bogus` inline is prose.", // 1
    "```sh", // 2
    "skiff ls", // 3
    "$ skiff attach web \\", // 4
    "    --json", // 5
    "```", // 6
    "```text", // 7
    "skiff not-a-command", // 8
    "```", // 9
    "```console", // 10
    "$ skiff ledger ls", // 11
    "skiff this-is-output", // 12
    "```", // 13
    "- In a list:", // 14
    "  ```bash", // 15
    "  npx @skiff/skiff --version", // 16
    "  ```", // 17
    "````", // 18
    "```sh", // 19
    "skiff inside-another-fence", // 20
    "````", // 21
  ].join("\n");
  const found = docCommands(markdown, "x.md").map((c) => [c.line, c.argv]);
  assertEquals(found, [
    [3, ["ls"]],
    [4, ["attach", "web", "--json"]],
    [11, ["ledger", "ls"]],
    [16, ["--version"]],
  ]);
});

Deno.test("doc examples: a bad command, subcommand or option fails, naming file and line", async () => {
  const markdown = [
    "```sh",
    "skiff snd web hello", // 2: no such command
    "skiff ledger frob", // 3: no such subcommand
    "skiff ls --bogus", // 4: no such option
    "skiff ledger", // 5: a group with no command only prints its help
    "skiff send PANE - --enter < task.md", // 6: fine, with placeholders
    "skiff --json ls && skiff help ledger add", // 7: fine
    "skiff wait PANE --timeout soon", // 8: not a number
    "skiff capture", // 9: PANE is missing
    "```",
  ].join("\n");
  const failed = await failures(docCommands(markdown, "planted.md"));
  assertEquals(failed.map((line) => line.slice(0, line.indexOf(": "))), [
    "planted.md:2",
    "planted.md:3",
    "planted.md:4",
    "planted.md:5",
    "planted.md:8",
    "planted.md:9",
  ]);
  assert(failed[0].includes("Unknown command 'snd'"), failed[0]);
  assert(failed[1].includes("Unknown command 'ledger frob'"), failed[1]);
  assert(failed[2].includes("Unknown option '--bogus'"), failed[2]);
  assert(failed[4].includes("needs a number"), failed[4]);
  assert(failed[5].includes("Missing argument PANE"), failed[5]);
});

Deno.test("doc examples: every skiff line in README.md and docs/*.md parses", async () => {
  const commands: DocCommand[] = [];
  for (const file of docs()) {
    commands.push(...docCommands(await Deno.readTextFile(join(ROOT, file)), file));
  }
  assertEquals(await failures(commands), []);
  // The examples are really found: the quick start and pages across the manual.
  assert(commands.some((c) => c.file === "README.md" && c.argv.length === 0), "./skiff");
  const files = new Set(commands.map((c) => c.file));
  for (const file of ["README.md", "docs/ledger.md", "docs/hosts.md", "docs/worktrees.md"]) {
    assert(files.has(file), `${file} has shell examples`);
  }
  assert(commands.length >= 40, `only ${commands.length} example lines found`);
});

/** Every example of `spec` and of its subcommands, each with the command it belongs to. */
function* specExamples(spec: CommandSpec, path: string[]): Generator<[string, string]> {
  for (const example of spec.examples ?? []) yield [`skiff ${path.join(" ")}`, example];
  for (const sub of spec.subcommands ?? []) yield* specExamples(sub, [...path, sub.name]);
}

Deno.test("doc examples: every example of every command's spec parses", async () => {
  const failed: string[] = [];
  let seen = 0;
  for (const entry of COMMANDS) {
    for (const [command, example] of specExamples(await entry.load(), [entry.name])) {
      seen++;
      const commands = exampleCommands(example, command);
      if (commands.length === 0) failed.push(`${command}: ${example}: runs no skiff command`);
      for (const found of commands) {
        const error = await checkCommand(COMMANDS, found.argv);
        if (error) failed.push(`${command}: ${example}: ${error}`);
      }
    }
  }
  assertEquals(failed, []);
  assert(seen >= 50, `only ${seen} examples found`);
});

Deno.test("doc examples: a spec's example with a bad option fails, naming its command", async () => {
  const [found] = exampleCommands("skiff land login --bogus && echo landed", "skiff land");
  assertEquals(found.file, "skiff land");
  const error = await checkCommand(COMMANDS, found.argv);
  assert(error?.includes("'--bogus'"), String(error));
  assertEquals(exampleCommands("echo hello", "skiff ls"), []);
});

Deno.test("doc examples: every 'deno task' they run is a task of deno.json", async () => {
  const tasks = Object.keys(JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).tasks);
  const unknown: string[] = [];
  let seen = 0;
  for (const file of docs()) {
    for (const { line, words } of shellLines(await Deno.readTextFile(join(ROOT, file)), file)) {
      if (words[0] !== "deno" || words[1] !== "task") continue;
      seen++;
      if (!tasks.includes(words[2])) unknown.push(`${file}:${line}: deno task ${words[2]}`);
    }
  }
  assertEquals(unknown, []);
  assert(seen >= 3, `only ${seen} 'deno task' lines found`);
});
