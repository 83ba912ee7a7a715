/**
 * End-to-end tests of where the ledger is made: reading a ledger that does
 * not exist creates nothing, a failed command leaves no file behind (issue 8
 * item 14), the first add sets the Skiff agent's folder up, and a folder that
 * holds other files is refused by every ledger command.
 */

import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { agentDir, exists, fails, failsJson, files, list, row } from "../helpers/ledger.ts";
import { withSkiff } from "../helpers/skiff.ts";
import { SETUP_NAMES } from "../helpers/skipper.ts";

Deno.test("ledger ls and show on a missing ledger show it empty and create nothing", async () => {
  await withSkiff(async (skiff) => {
    const dir = agentDir(skiff);
    const listed = await list(skiff);
    assertEquals(listed.rows, []);
    assertEquals(
      await skiff.ok(["ledger", "ls"]),
      "No open tasks. 'skiff ledger ls --all' lists done ones too.\n",
    );
    await fails(skiff, ["ledger", "show", "1"], 3, /No task with ID or uid '1'/);
    for (const args of [["send", "1"], ["update", "1", "--ref", "x"], ["done", "1"], ["rm", "1"]]) {
      await fails(skiff, ["ledger", ...args], 3, /No task/);
    }
    assert(!(await exists(dir)), "no folder was made");
    // Also for a file SKIFF_LEDGER names.
    skiff.env.SKIFF_LEDGER = join(skiff.root, "elsewhere", "tasks.db");
    assertEquals((await list(skiff)).rows, []);
    assert(!(await exists(join(skiff.root, "elsewhere"))), "nothing made for SKIFF_LEDGER");
  });
});

Deno.test("a failed ledger add leaves no file behind", async () => {
  await withSkiff(async (skiff) => {
    const dir = agentDir(skiff);
    await fails(skiff, ["ledger", "add", "--task", "x", "--parent", "1"], 3, /No task/);
    await fails(skiff, ["ledger", "add", "--task", "   "], 2, /task/i);
    await fails(skiff, ["ledger", "add", "--pane", "ghost", "--task", "x"], 3, /No pane 'ghost'/);
    assert(!(await exists(dir)), "no folder, no ledger.db");
  });
});

Deno.test("the first ledger add sets the Skiff agent's folder up; an edited AGENTS.md stays", async () => {
  await withSkiff(async (skiff) => {
    const dir = agentDir(skiff);
    const plan = await row(skiff, ["add", "--task", "First plan"]);
    assertEquals(await files(dir), [...SETUP_NAMES, "ledger.db"].sort());
    const skill = join(skiff.env.SKIFF_CONFIG_DIR, "skills", "skiff-cli");
    assertEquals(await Deno.readLink(join(dir, ".agents", "skills", "skiff-cli")), skill);
    assert((await Deno.readTextFile(join(dir, "CLAUDE.md"))).startsWith("# Skipper"));
    await Deno.writeTextFile(join(dir, "AGENTS.md"), "# Mine\n");
    await Deno.remove(join(dir, "GEMINI.md"));
    await Deno.remove(join(dir, "ledger.db"));
    await row(skiff, ["add", "--task", "Second ledger"]);
    assertEquals(await Deno.readTextFile(join(dir, "AGENTS.md")), "# Mine\n", "the edit stays");
    assertEquals(
      await Deno.readLink(join(dir, "GEMINI.md")),
      "AGENTS.md",
      "a missing part is back",
    );
    assert(plan.uid !== "");
  });
});

Deno.test("ledger commands refuse a folder that holds other files, and touch nothing", async () => {
  await withSkiff(async (skiff) => {
    const dir = agentDir(skiff);
    await Deno.mkdir(dir);
    await Deno.writeTextFile(join(dir, "notes.txt"), "mine\n");
    const why = /Cannot use .*skiff-agent as the Skiff agent's folder: it holds files that are not/;
    await fails(skiff, ["ledger", "add", "--task", "x"], 2, why);
    await fails(skiff, ["ledger", "ls"], 2, why);
    const err = await failsJson(skiff, ["ledger", "show", "1"], 2);
    assertEquals(err.folder, dir);
    assertEquals(await files(dir), ["notes.txt"]);
    // SKIFF_LEDGER still names any file, with no folder rules.
    skiff.env.SKIFF_LEDGER = join(dir, "tasks.db");
    await row(skiff, ["add", "--task", "Beside my notes"]);
    assertEquals(await files(dir), ["notes.txt", "tasks.db"]);
  });
});

Deno.test("a ledger add refuses a folder in a Git repository", async () => {
  await withSkiff(async (skiff) => {
    const repo = join(skiff.root, "repo");
    await Deno.mkdir(join(repo, ".git"), { recursive: true });
    await Deno.mkdir(skiff.env.SKIFF_CONFIG_DIR);
    await Deno.writeTextFile(skiff.configFile, `[skiff_agent]\nfolder = "${repo}/agent"\n`);
    await fails(skiff, ["ledger", "add", "--task", "x"], 2, /it is in a Git repository/);
    assert(!(await exists(join(repo, "agent"))), "nothing made");
    assertEquals((await list(skiff)).rows, [], "reading is fine: an empty ledger");
  });
});
