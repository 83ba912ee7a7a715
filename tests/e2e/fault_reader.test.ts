/**
 * The thread that reads pane output fails (through the documented fault
 * switch `SKIFF_FAULT_PTY_READER`) while a pane prints: the pane goes back to
 * being read by the event loop and loses nothing, its exit is still told,
 * and new panes work.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, waitFor, withSkiff } from "../helpers/skiff.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

/** Prints 1..1500 in 30 bursts, so the fault falls between reads of one output. */
const BURSTS = "for i in $(seq 0 29); do seq $((i*50+1)) $((i*50+50)); sleep 0.02; done; echo END";

Deno.test({
  name: "the PTY reader thread fails mid-output: nothing is lost, the exit is told, new panes work",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await withSkiff(async (skiff) => {
      await skiff.ok(["new", "--name", "burst", "--", "bash", "-c", BURSTS]);
      const pane = await waitFor("the pane's program to exit", async () => {
        const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
        const found = panes.find((p) => p.name === "burst");
        return found?.status === "exited" ? found : undefined;
      });
      assertEquals(pane.exit_code, 0);
      const text = await skiff.ok(["capture", "burst", "--scrollback", "2000"]);
      const lines = text.split("\n").filter((line) => line !== "");
      const expected = [...Array.from({ length: 1500 }, (_, i) => String(i + 1)), "END"];
      assertEquals(lines, expected, "every line, in order, across the switch");

      const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log"));
      assertMatch(log, /the PTY reader thread failed, panes are read as before/);

      // A pane made after the failure is read by the event loop from the start.
      await skiff.ok(["new", "--name", "after", "--", ...BASH]);
      await skiff.ok(["keys", "after", "echo still-$((6*7))", "Enter"]);
      await skiff.waitForScreen("after", /^still-42$/m);
      const status = await skiff.json<{ pid: number }>(["daemon", "status"]);
      assert(status.pid > 0, "skiffd still runs");
    }, { SKIFF_FAULT_PTY_READER: "3" });
  },
});
