/**
 * Issue 28, case 13: without a terminal, no column is cut. `skiff ls` (its
 * TITLE column) and `skiff ledger ls` (its TASK column) piped keep their
 * last column whole, whatever `COLUMNS` says; on a terminal they fit its
 * width, as `worktree ls` does (its test is in worktree_life.test.ts).
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { BASH, MAIN, type SkiffEnv, withSkiff } from "../helpers/skiff.ts";
import { TestTerminal } from "../helpers/terminal.ts";

const LONG_TITLE = "a title " + "that goes on ".repeat(20) + "to its end";
const LONG_TASK = "Review " + "the parser ".repeat(30) + "to its end";

/** The lines `skiff args…` prints on a terminal `cols` wide. */
async function onTerminal(skiff: SkiffEnv, args: string[], cols: number): Promise<string[]> {
  const terminal = await TestTerminal.start([Deno.execPath(), "run", "-A", "-q", MAIN, ...args], {
    env: skiff.env,
    cwd: skiff.env.HOME,
    cols,
    rows: 10,
  });
  assertEquals(await terminal.exited, 0, terminal.raw);
  return terminal.text().split("\n").filter((line) => line.trim() !== "");
}

Deno.test("issue 28, case 13: ls piped keeps a long title whole; on a terminal it fits", async () => {
  await withSkiff(async (skiff) => {
    skiff.env.COLUMNS = "80";
    await skiff.ok(["new", "--name", "titled", "--", ...BASH]);
    await skiff.ok(["keys", "titled", `printf '\\033]2;${LONG_TITLE}\\007'; echo set`, "Enter"]);
    await skiff.waitForScreen("titled", /^set$/m);
    const piped = await skiff.ok(["ls"]);
    const row = piped.split("\n").find((line) => line.startsWith("p"))!;
    assert(row.endsWith(LONG_TITLE), `the title is whole: ${row}`);
    assert(!piped.includes("…"), "nothing is cut");

    const shown = await onTerminal(skiff, ["ls"], 100);
    for (const line of shown) assert([...line].length <= 100, `a line too long: ${line}`);
    assert(shown.some((line) => line.endsWith("…")), `the title is cut:\n${shown.join("\n")}`);
  });
});

Deno.test("issue 28, case 13: ledger ls piped keeps a long task whole; on a terminal it fits", async () => {
  await withSkiff(async (skiff) => {
    skiff.env.SKIFF_LEDGER = join(skiff.root, "agent", "ledger.db");
    skiff.env.COLUMNS = "80";
    await skiff.ok(["ledger", "add", "--task", LONG_TASK]);
    const piped = await skiff.ok(["ledger", "ls"]);
    const row = piped.trimEnd().split("\n")[1];
    assert(row.endsWith(LONG_TASK), `the task is whole: ${row}`);
    assert(!piped.includes("…"), "nothing is cut");

    const shown = await onTerminal(skiff, ["ledger", "ls"], 80);
    for (const line of shown) assert([...line].length <= 80, `a line too long: ${line}`);
    // stderr shares the terminal: the row is the one with the task.
    const cut = shown.find((line) => line.includes("Review the parser"));
    assert(cut?.endsWith("…"), `the task is cut:\n${shown.join("\n")}`);
  });
});
