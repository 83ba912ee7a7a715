/**
 * The dashboard with more panes than its terminal has rows: its first
 * frame comes from a listing of the first screen's panes (skiffd counts
 * the rest), and the whole list follows it.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { openDash, selectedRow } from "../helpers/dash.ts";
import { BASH, waitFor, withSkiff } from "../helpers/skiff.ts";
import { DaemonClient } from "../../lib/client/client.ts";

Deno.test("dash: more panes than rows: the first screen counts them all, and the whole list follows", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["daemon", "start"]);
    const client = await DaemonClient.connect(skiff.socket);
    try {
      for (let i = 1; i <= 14; i++) {
        await client.call("pane.new", { name: `pane-${i}`, command: BASH });
      }
      // The last pane is past the first screen: only skiffd's counts know it at first.
      await client.call("pane.new", { name: "late", command: BASH });
      const first = await client.call("workspace.list", { first: 10 });
      assert(first.cut, "a terminal of 10 rows gets a first screen's listing");
      assertEquals(first.cut.counts.panes, 15);
      assert(!first.panes.some((p) => p.name === "late"), "the last pane is left out");
    } finally {
      client.close();
    }
    const term = await openDash(skiff, { cols: 100, rows: 10, ready: "15 panes" });
    try {
      // G selects the list's last row: the pane that was not in the first listing.
      term.type("G");
      await waitFor("the last pane selected", () => selectedRow(term)?.includes(" late "), {
        timeout: 10_000,
      }).catch((error) => {
        throw new Error(`${error.message}:\n${term.text()}`);
      });
      assert(term.text().includes("15 panes"), term.text());
    } finally {
      term.kill();
    }
  });
});
