/**
 * The README is for users, and must stay true: its event table lists exactly
 * the protocol's events, it (or a page under docs/) names every command, and
 * the **States.** paragraphs of the README and of the docs pages, with the
 * skill, name every state a ledger row shows.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { ROOT } from "../helpers/skiff.ts";
import { EVENT_NAMES } from "../../lib/protocol/events.ts";
import { COMMANDS } from "../../cmd/loaders.ts";
import { SHOWN_STATES } from "../../lib/ledger/states.ts";
import { SKIFF_CLI_SKILL } from "../../lib/assets/skiff_cli_skill.ts";

const README = Deno.readTextFileSync(join(ROOT, "README.md"));

/** The README and every page under docs/, the user's documentation. */
const DOCS = [
  README,
  ...[...Deno.readDirSync(join(ROOT, "docs"))].filter((e) => e.name.endsWith(".md"))
    .map((e) => Deno.readTextFileSync(join(ROOT, "docs", e.name))),
];

/** The lines of the section under `heading`, up to the next heading of any level. */
function section(heading: string): string[] {
  const lines = README.split("\n");
  const start = lines.findIndex((line) => line.trim() === heading);
  assert(start !== -1, `README has no '${heading}' section`);
  const end = lines.findIndex((line, i) => i > start && /^#{1,6} /.test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

Deno.test("README: the event table lists exactly the protocol's events", () => {
  // Each event is listed as "- `name`, `name`: when".
  const names = section("### Events")
    .filter((line) => line.startsWith("- `"))
    .flatMap((line) =>
      [...line.slice(0, line.indexOf(":")).matchAll(/`([a-z-]+)`/g)].map((m) => m[1])
    );
  assertEquals([...names].sort(), [...EVENT_NAMES].sort());
});

Deno.test("README: lines fit a 100-column terminal, outside code blocks", () => {
  let code = false;
  const wide: string[] = [];
  for (const line of README.split("\n")) {
    if (line.startsWith("```")) code = !code;
    else if (!code && [...line].length > 100) wide.push(line);
  }
  assertEquals(wide, []);
});

Deno.test("README and docs: every command is documented", () => {
  const missing = COMMANDS.filter((entry) =>
    !DOCS.some((text) => text.includes(`\`skiff ${entry.name}`))
  ).map((entry) => entry.name);
  assertEquals(missing, []);
});

Deno.test("README, docs and the skiff-cli skill name every state a ledger row shows", () => {
  const paragraphs = DOCS.flatMap((text) => {
    const lines = text.split("\n");
    const at = lines.findIndex((line) => line.startsWith("**States.**"));
    return at === -1 ? [] : [lines.slice(at, at + 8).join(" ")];
  });
  assert(README.includes("**States.**"), "README has a **States.** paragraph");
  const skill = Deno.readTextFileSync(join(ROOT, "skills", "skiff-cli", "SKILL.md"));
  for (const state of SHOWN_STATES) {
    assert(
      paragraphs.some((p) => p.includes(`\`${state}\``)),
      `a States paragraph names '${state}'`,
    );
    assert(skill.includes(`\`${state}\``), `SKILL.md names '${state}'`);
  }
  // The skill built into the program says so too (tests/unit/assets checks it is in step).
  for (const state of SHOWN_STATES) assert(SKIFF_CLI_SKILL.includes(`\`${state}\``), state);
});
