/**
 * The MCP server's kept connection (lib/mcp/access.ts), in this process
 * against a real skiffd: the calls and every event listener share one
 * connection, made once more (once) after a reload, and the events resume
 * on it.
 *
 * @module
 */

import { assertEquals } from "../helpers/assert.ts";
import { BASH, waitFor, withSkiff } from "../helpers/skiff.ts";
import { KeptSkiffd } from "../../lib/mcp/access.ts";

Deno.test({
  name:
    "KeptSkiffd: one connection carries the calls and every listener's events, made again once after a reload",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await withSkiff(async (skiff) => {
      await skiff.ok(["new", "--name", "sh", "--", ...BASH]);
      const kept = new KeptSkiffd(skiff.socket);
      try {
        const heard: string[][] = [[], [], []];
        const stops = heard.map((events) => kept.follow(null, (e) => events.push(e.event)));
        const renamed = (times: number) => () =>
          heard.every((events) => events.filter((e) => e === "pane-renamed").length === times);
        await (await kept.local()).call("pane.list");
        // The listeners' subscription is live once a change made now reaches them all.
        await waitFor("every listener to hear a rename", async () => {
          await skiff.ok(["rename", "sh", `sh-${heard[0].length}`]);
          return heard.every((events) => events.includes("pane-renamed"));
        });
        assertEquals(kept.connections, 1);
        const before = heard[0].filter((e) => e === "pane-renamed").length;
        await waitFor("the listeners to agree", renamed(before));

        await skiff.ok(["daemon", "reload"]);
        await (await kept.local()).call("pane.list");
        // The events resume on the new connection, after the last one heard: none missed.
        await skiff.ok(["rename", "p1", "again"]);
        await waitFor("the rename after the reload", renamed(before + 1), { timeout: 15_000 });
        assertEquals(heard[0].filter((e) => e === "daemon-reloaded").length, 1);
        assertEquals(kept.connections, 2);
        for (const stop of stops) stop();
      } finally {
        kept.close();
      }
    });
  },
});
