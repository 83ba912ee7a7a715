/**
 * The dashboard opens a pane with `attachTerminal` and reads its own keys
 * through the same reader: a key typed after the pane ended under it
 * reaches the dashboard, not a read the attach left behind. What the opened
 * pane showed is seen once the person is back (case 14 of issue 28).
 */

import { assertMatch } from "../helpers/assert.ts";
import { openDash, press, selectedRow } from "../helpers/dash.ts";
import { startFakeAgent, useFakeAgent } from "../helpers/fake_agent.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
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

Deno.test("case 14: dash: a turn watched in a pane opened with Enter is seen once back, so w does not go back to it", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    await startFakeAgent(skiff, "solo", { env: { FAKE_TURN_MS: "300" } });
    const term = await openDash(skiff, { ready: " solo " });
    try {
      await waitFor("solo selected", () => {
        if (selectedRow(term)?.includes(" solo ")) return true;
        term.type("\x1b[B");
        return false;
      }, { interval: 300 });
      term.type("\r");
      await term.waitForText(/Type a task/);
      term.type("watch me");
      await term.waitForText(/> watch me/);
      term.type("\r");
      await term.waitForText(/fake reply to: watch me/);
      await waitFor("the turn end", async () => {
        const p = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
        return p.state === "idle" && p.unread;
      });
      // Back in the dashboard: the pane was in front of the person, so it needs nobody.
      term.type("\x1c");
      await term.waitForText(/watcher: /);
      await waitFor("solo seen", async () => {
        const p = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
        return p.attached === 0 && !p.unread;
      });
      assertMatch(await press(term, "w", /No pane needs you/), /none is unread/);
    } finally {
      term.kill();
    }
  });
});
