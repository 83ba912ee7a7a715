/**
 * What the Skiff agent is taught about starting workers: a new folder's
 * `AGENTS.md` and the skill teach the whole loop (a worker in its own
 * worktree, ready, the task through the ledger, the result and the diff,
 * what each branch holds, cleaning up without `--force`); a folder set up
 * before keeps its own `AGENTS.md`, byte for byte, and gets the loop from
 * the new copy of the skill.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { withSkiff } from "../helpers/skiff.ts";
import { openJson, skipperDir, useFakeSkipper } from "../helpers/skipper.ts";

/** What teaching the loop takes, in any words: the commands and the rule about --force. */
const LOOP = [
  /skiff new --project \S+ --worktree \S+ --agent \S+ --wait-ready/,
  /skiff ledger add --pane/,
  /skiff diff \S+ --stat/,
  /skiff worktree ls/,
  /what\s+each\s+branch\s+holds/i,
  /merged/,
  /skiff worktree rm/,
  /[Nn]ever\s+(use\s+|add\s+)?`--force`\s+unless\s+the\s+person\s+told\s+you/,
];

function teachesLoop(text: string, what: string): void {
  for (const pattern of LOOP) assert(pattern.test(text), `${what} lacks ${pattern}`);
}

/** An `AGENTS.md` as the Skiff before worktrees wrote it. */
const OLD_AGENTS = new URL("../fixtures/skipper/AGENTS-before-worktrees.md", import.meta.url);

Deno.test("skipper: a new folder's AGENTS.md and the skill teach starting and cleaning up workers", async () => {
  await withSkiff(async (skiff) => {
    await useFakeSkipper(skiff);
    await openJson(skiff);
    teachesLoop(await Deno.readTextFile(join(skipperDir(skiff), "AGENTS.md")), "AGENTS.md");
    const linked = join(skipperDir(skiff), ".agents", "skills", "skiff-cli", "SKILL.md");
    teachesLoop(await Deno.readTextFile(linked), "the skill");
  });
});

Deno.test("skipper: a folder set up before keeps its AGENTS.md; the new skill copy carries the loop", async () => {
  await withSkiff(async (skiff) => {
    await useFakeSkipper(skiff);
    const dir = skipperDir(skiff);
    await Deno.mkdir(dir, { recursive: true });
    const old = await Deno.readTextFile(OLD_AGENTS);
    assert(!/--worktree/.test(old), "the old text has no worktrees");
    await Deno.writeTextFile(join(dir, ".skiff-agent"), "made by an older Skiff\n");
    await Deno.writeTextFile(join(dir, "AGENTS.md"), old);
    // An older Skiff's copy of the skill, without the loop.
    const copy = join(skiff.env.SKIFF_CONFIG_DIR, "skills", "skiff-cli", "SKILL.md");
    await Deno.mkdir(join(skiff.env.SKIFF_CONFIG_DIR, "skills", "skiff-cli"), { recursive: true });
    await Deno.writeTextFile(copy, "# an older skill\n");
    await openJson(skiff);
    assertEquals(await Deno.readTextFile(join(dir, "AGENTS.md")), old, "kept byte for byte");
    teachesLoop(await Deno.readTextFile(copy), "the new skill copy");
    assertEquals(
      await Deno.readTextFile(join(dir, ".agents", "skills", "skiff-cli", "SKILL.md")),
      await Deno.readTextFile(copy),
      "the folder's link reaches the new copy",
    );
  });
});
