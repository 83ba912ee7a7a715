/**
 * What the Skiff agent is told about the review loop and landing: its
 * AGENTS.md and the skill built into Skiff both teach reading the result
 * and the diff, sending fixes back, landing with `skiff land`, handing a
 * conflict to the worker with `--to-pane`, and telling the person what
 * landed; and both follow `[skiff_agent] land` by reading it before each
 * landing, so a changed setting holds without a new AGENTS.md.
 *
 * @module
 */

import { assert, assertMatch } from "../../helpers/assert.ts";
import { agentInstructions } from "../../../lib/skipper/mod.ts";
import { SKIFF_CLI_SKILL } from "../../../lib/assets/skiff_cli_skill.ts";
import { LAND_SETTINGS } from "../../../lib/config/tables.ts";

const TEXTS: [string, string][] = [
  ["AGENTS.md", agentInstructions("Skipper")],
  ["the skill", SKIFF_CLI_SKILL],
];

Deno.test("AGENTS.md and the skill teach the review loop and skiff land", () => {
  for (const [what, text] of TEXTS) {
    for (
      const needed of [
        /result file/,
        /skiff diff NAME/,
        /send (the worker )?(a )?(new task|fix)/i,
        /skiff land NAME --dry-run --json/,
        /skiff land NAME --to-pane/,
        /[Ee]xit 19|\*\*19\*\*/,
        /[Ee]xit 20|\*\*20\*\*/,
        /[Tt]ell the person what\s+landed/,
        /`landed`/,
      ]
    ) {
      assertMatch(text, needed, `${what} says ${needed}`);
    }
  }
});

Deno.test("AGENTS.md and the skill follow [skiff_agent] land: read before each landing, ask or auto", () => {
  for (const [what, text] of TEXTS) {
    assertMatch(text, /skiff settings --json/, `${what} names where the setting is read`);
    assertMatch(text, /settings\.land/, what);
    for (const value of LAND_SETTINGS) assert(text.includes(`\`${value}\``), `${what}: ${value}`);
    assertMatch(text, /`ask`\s+\(the default\)/, what);
    assertMatch(text, /land only when\s+they say so/, `${what}: ask means the person decides`);
  }
});
