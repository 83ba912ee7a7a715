/**
 * skiffd under load: floods in several panes at once. Screens stay exact,
 * paused panes lose nothing, and requests are answered meanwhile.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { BASH, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { DaemonClient } from "../../lib/client/client.ts";
import { Frame, FrameReader } from "../../lib/protocol/frames.ts";
import { Screen } from "../../lib/screen/screen.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import { floodText } from "../fixtures/flood.ts";

const FLOOD = new URL("../fixtures/flood.ts", import.meta.url).pathname;
const SCROLLBACK = 300;
const encoder = new TextEncoder();

/** What a pane's terminal sends on for `text`: the PTY turns each newline into CR LF. */
function ptyBytes(text: string): Uint8Array {
  return encoder.encode(text.replaceAll("\n", "\r\n"));
}

async function panes(skiff: SkiffEnv): Promise<PaneInfo[]> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
}

/** Runs `skiff args…`, failing when no answer comes within `ms` (generous: this is no timing test). */
async function answered(skiff: SkiffEnv, args: string[], ms = 20_000): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`skiff ${args.join(" ")} got no answer within ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([skiff.ok(args), late]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("flooding panes' screens match a reference terminal fed the same bytes", async () => {
  await withSkiff(async (skiff) => {
    await Deno.mkdir(skiff.env.SKIFF_CONFIG_DIR, { recursive: true });
    await Deno.writeTextFile(skiff.configFile, `[daemon]\nscrollback = ${SCROLLBACK}\n`);
    const floods = [1, 2, 3, 4].map((seed) => ({ seed, bytes: 1_500_000 + seed * 100_000 }));
    for (const { seed, bytes } of floods) {
      await skiff.ok([
        "new",
        "--name",
        `flood${seed}`,
        "--size",
        "100x30",
        "--",
        Deno.execPath(),
        "run",
        "-q",
        FLOOD,
        String(seed),
        String(bytes),
      ]);
    }
    await waitFor("every flood to end", async () => {
      const list = await panes(skiff);
      return list.length === floods.length && list.every((p) => p.status === "exited");
    }, { timeout: 120_000, interval: 200 });
    for (const { seed, bytes } of floods) {
      const reference = new Screen(100, 30, { scrollback: SCROLLBACK, respond: () => {} });
      try {
        reference.writeSync(ptyBytes(floodText(seed, bytes)));
        const got = await skiff.json<{ lines: string[]; cursor: { x: number; y: number } }>([
          "capture",
          `flood${seed}`,
          "--scrollback",
          "1000",
        ]);
        assertEquals(got.lines, reference.lines({ scrollback: 1000 }), `flood${seed}'s screen`);
        const want = reference.snapshot().cursor;
        assertEquals([got.cursor.x, got.cursor.y], [want.x, want.y]);
        assert(got.lines.includes(`flood ${seed} done`));
      } finally {
        reference.dispose();
      }
    }
  });
});

Deno.test("a pane paused behind floods resumes and loses nothing, and its attached terminal gets every byte", async () => {
  await withSkiff(async (skiff) => {
    for (let i = 0; i < 4; i++) await skiff.ok(["new", "--name", `yes${i}`, "--", "yes"]);
    await skiff.ok([
      "new",
      "--name",
      "count",
      "--size",
      "80x24",
      "--",
      "sh",
      "-c",
      "stty -echo; printf ready; read go; seq 1 200000",
    ]);
    await skiff.waitForScreen("count", /^ready$/m, { timeout: 30_000 });

    // Attach in the middle of the floods, as a terminal would.
    const client = await DaemonClient.connect(skiff.socket);
    const frames = new FrameReader();
    const outputs: Uint8Array[] = [];
    let endReason = "";
    const ended = new Promise<void>((resolve) => {
      client.onRaw((data) => {
        if (data === null) return resolve();
        for (const frame of frames.push(data)) {
          if (frame.type === Frame.OUTPUT) outputs.push(frame.payload);
          if (frame.type === Frame.END) {
            endReason = JSON.parse(new TextDecoder().decode(frame.payload)).reason;
            resolve();
          }
        }
      });
    });
    try {
      await client.call("attach", { pane: "count" }, { raw: true });
      await skiff.ok(["keys", "count", "Enter"]);
      await ended;
    } finally {
      client.close();
    }
    assertEquals(endReason, "exited");
    // The first frame is the redraw; every byte after it is the program's output.
    const forwarded = outputs.slice(1).reduce((sum, frame) => sum + frame.length, 0);
    let expected = 0;
    for (let n = 1; n <= 200_000; n++) expected += String(n).length + 2;
    assertEquals(forwarded, expected, "bytes forwarded to the attached terminal");

    const screen = await skiff.json<{ lines: string[] }>(["capture", "count"]);
    assertEquals(screen.lines.slice(-3), ["199999", "200000", ""]);
    // The redraw plus what followed it, on a fresh terminal, is the pane's screen.
    const replay = new Screen(80, 24, { scrollback: 0, respond: () => {} });
    try {
      for (const frame of outputs) replay.writeSync(frame);
      assertEquals(replay.visibleLines(), screen.lines);
    } finally {
      replay.dispose();
    }
    for (let i = 0; i < 4; i++) await skiff.ok(["kill", `yes${i}`]);
  });
});

Deno.test("requests keep being answered while several panes flood", async () => {
  await withSkiff(async (skiff) => {
    const flooding = 6;
    for (let i = 0; i < flooding; i++) await skiff.ok(["new", "--name", `yes${i}`, "--", "yes"]);
    await skiff.ok(["new", "--name", "quiet", "--", ...BASH]);
    await skiff.waitForScreen("yes0", /^y$/m);
    for (let round = 0; round < 4; round++) {
      const list = JSON.parse(await answered(skiff, ["ls", "--json"])).panes as PaneInfo[];
      assertEquals(list.length, flooding + 1);
      await answered(skiff, ["keys", "quiet", `echo round-$((${round}+100))`, "Enter"]);
      await waitFor(`the quiet pane's echo in round ${round}`, async () => {
        const screen = await answered(skiff, ["capture", "quiet"]);
        return screen.includes(`round-${round + 100}\n`) || undefined;
      }, { timeout: 20_000 });
      const flood = await answered(skiff, ["capture", `yes${round}`]);
      assert(
        /^y$/m.test(flood),
        `the flood goes on meanwhile: ${JSON.stringify(flood.slice(-200))}`,
      );
    }
    const states = JSON.parse(await answered(skiff, ["ls", "--json"])).panes as PaneInfo[];
    assert(states.every((p) => p.status === "running"));
    // Every flooding program still takes keys and stops at once.
    for (let i = 0; i < flooding; i++) await answered(skiff, ["keys", `yes${i}`, "C-c"]);
    await waitFor("the floods to stop", async () => {
      const list = await panes(skiff);
      return list.filter((p) => p.status === "exited").length === flooding;
    }, { timeout: 30_000 });
  });
});
