/**
 * The dashboard opens a pane with `attachTerminal` and reads its own keys
 * through the same reader: a key typed after the pane ended under it
 * reaches the dashboard, not a read the attach left behind.
 */

import { assertMatch } from "../helpers/assert.ts";
import { openDash, selectedRow } from "../helpers/dash.ts";
import { BASH, waitFor, withSkiff } from "../helpers/skiff.ts";

Deno.test("dash: after an opened pane exits, the next key reaches the dashboard", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "solo", "--", ...BASH]);
    const term = await openDash(skiff, { ready: " solo " });
    try {
      await waitFor("solo selected", () => {
        if (selectedRow(term)?.includes(" solo ")) return true;
        term.type("\x1b[B");
        return false;
      }, { interval: 300 });
      term.type("\r");
      await waitFor("the attach", () => !term.text().includes("watcher: "));
      term.type("exit\r");
      // Back in the dashboard, which says the pane exited.
      await term.waitForText(/solo \(p1\) exited/);
      term.type("/");
      assertMatch(await term.waitForText(/Filter: /), /Filter: /);
    } finally {
      term.kill();
    }
  });
});
