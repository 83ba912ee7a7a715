/** The command reference in Markdown: each command's whole `--help`, hidden ones left out. */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { defineCommand } from "../../../lib/cli/spec.ts";
import type { CommandEntry, CommandSpec } from "../../../lib/cli/spec.ts";
import { renderHelp } from "../../../lib/cli/help.ts";
import { renderReference } from "../../../lib/cli/reference.ts";

const add = defineCommand({
  name: "add",
  summary: "Add a thing",
  args: [{ name: "NAME", required: true, help: "The thing's name" }],
  options: [{ name: "force", type: "boolean", help: "Even when it is there" }],
  examples: ['skiff box add "```"'],
  exits: ["CONFLICT"],
  run: () => {},
});
const secret = defineCommand({
  name: "secret",
  summary: "For programs",
  hidden: true,
  run: () => {},
});
const box: CommandSpec = { name: "box", summary: "Boxes", subcommands: [add, secret] };
const list = defineCommand({ name: "ls", aliases: ["list"], summary: "List", run: () => {} });
const hook = defineCommand({ name: "hook", summary: "Hidden", hidden: true, run: () => {} });

const entries: CommandEntry[] = [box, list, hook].map((spec) => ({
  name: spec.name,
  aliases: spec.aliases ? [...spec.aliases] : undefined,
  summary: spec.summary,
  hidden: spec.hidden,
  load: () => Promise.resolve(spec),
}));

Deno.test("reference: every shown command and subcommand with its whole help, in order", async () => {
  const page = await renderReference(entries, { title: "Commands", intro: "Read me.\n" });
  const lines = page.split("\n");
  assertEquals(lines.slice(0, 4), ["# Commands", "", "Read me.", ""]);
  assertEquals(lines.filter((line) => line.startsWith("#")), [
    "# Commands",
    "## skiff box",
    "### skiff box add",
    "## skiff ls",
  ]);
  // The index links each heading by the anchor GitHub gives it.
  assert(page.includes("- [`skiff box`](#skiff-box): Boxes\n"), page);
  assert(page.includes("  - [`skiff box add`](#skiff-box-add): Add a thing\n"), page);
  assert(page.includes("Also: `skiff list`."), page);
  // The help is the program's own, whole, in a fence its backticks cannot close.
  assert(page.includes("````text\n" + renderHelp(add, ["box", "add"]) + "\n````\n"), page);
  assert(page.includes("```text\n" + renderHelp(box, ["box"]) + "\n```\n"), page);
  assert(page.includes("Exit codes:\n  0  Success"), page);
  assert(!page.includes("secret") && !page.includes("Hidden"), "hidden commands are left out");
  assert(page.endsWith("```\n"), "the page ends with one newline");
});
