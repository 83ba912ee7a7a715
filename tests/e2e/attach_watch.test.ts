/**
 * A watching attach (`attach` with `watch: true`), as the dashboard's
 * preview uses it: the pane's output streams, but the pane keeps its size,
 * nothing typed goes in, and it counts neither as attached nor as a
 * person's input. And `state_since` in a pane's description.
 */

import { DaemonClient } from "../../lib/client/client.ts";
import { encodeFrame, Frame, FrameReader } from "../../lib/protocol/frames.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { BASH, waitFor, withSkiff } from "../helpers/skiff.ts";

Deno.test("attach --watch: follows output without resizing, typing or counting as attached", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "w", "--size", "90x20", "--", ...BASH]);
    const { panes: [before] } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
    const client = await DaemonClient.connect(skiff.socket);
    try {
      const info = await client.call(
        "attach",
        { pane: "w", cols: 40, rows: 10, watch: true },
        { raw: true },
      );
      assertEquals([info.cols, info.rows], [90, 20]);
      const reader = new FrameReader();
      let output = "";
      client.onRaw((data) => {
        if (data === null) return;
        for (const frame of reader.push(data)) {
          if (frame.type === Frame.OUTPUT) output += new TextDecoder().decode(frame.payload);
        }
      });
      // Input and resizes from a watcher are dropped.
      await client.write(encodeFrame(Frame.INPUT, "echo from-the-watcher\r"));
      await client.write(encodeFrame(Frame.RESIZE, JSON.stringify({ cols: 30, rows: 8 })));
      await skiff.ok(["keys", "w", "echo seen-by-the-watcher", "Enter"]);
      await waitFor("the watcher to see the output", () => output.includes("seen-by-the-watcher"));
      const { panes: [pane] } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
      assertEquals([pane.cols, pane.rows, pane.attached], [90, 20, 0]);
      assertEquals(pane.person_inputs, before.person_inputs);
      const screen = await skiff.ok(["capture", "w"]);
      assert(!screen.includes("from-the-watcher"), `the watcher's input went in:\n${screen}`);
      assert(!Number.isNaN(Date.parse(pane.state_since)), `state_since: ${pane.state_since}`);
    } finally {
      client.close();
    }
  });
});
