/**
 * A pane's agent watch reads the pane again as Enter goes in, so a command
 * typed just before it (within one throttled reading) is what Enter
 * submits: Qwen Code's `/clear` then holds the pane working.
 */

import { assertEquals } from "../../helpers/assert.ts";
import { Screen } from "../../../lib/screen/screen.ts";
import { BUILT_IN } from "../../../lib/agents/profiles/mod.ts";
import type { AgentRegistry } from "../../../lib/agents/registry.ts";
import { PaneWatch } from "../../../lib/daemon/panes/pane_watch.ts";
import type { Pane } from "../../../lib/daemon/panes/mod.ts";
import type { ScreenView } from "../../../lib/screen/view.ts";
import { SCREENS } from "../../agents/replay.ts";

/** A screen captured from Qwen Code (tests/fixtures/screens/qwen). */
async function qwenView(state: string): Promise<ScreenView> {
  const meta = JSON.parse(await Deno.readTextFile(new URL(`qwen/${state}.json`, SCREENS)));
  const text = await Deno.readTextFile(new URL(`qwen/${state}.ans`, SCREENS));
  const body = text.replace(/\n$/, "").replace(/\r?\n/g, "\r\n") + `\x1b]2;${meta.title}\x07`;
  const screen = new Screen(meta.cols, meta.rows, { scrollback: 100, respond: () => {} });
  await new Promise<void>((resolve) => screen.write(new TextEncoder().encode(body), resolve));
  return screen.view();
}

Deno.test("PaneWatch: Enter right after a typed /clear reads the input box first, and holds the pane working", async () => {
  const qwen = BUILT_IN.find((p) => p.id === "qwen")!;
  const registry = {
    identify: (p: { comm: string } | undefined) => p?.comm === "qwen" ? qwen : undefined,
    get: (id: string) => id === "qwen" ? qwen : undefined,
  } as unknown as AgentRegistry;
  const views = {
    idle: await qwenView("idle"),
    typed: await qwenView("clear-typed"),
    clearing: await qwenView("clearing"),
  };
  let shown = views.idle;
  const pane = {
    id: "p1",
    status: "running",
    screen: { view: () => shown },
    foreground: () => ({ pid: 42, comm: "qwen", argv: ["qwen"] }),
    saved: {},
  } as unknown as Pane;
  const watch = new PaneWatch(pane, {
    registry: () => registry,
    emit: () => {},
    stateChanged: () => {},
    noTurnMs: () => 5000,
  });
  try {
    watch.evaluate();
    assertEquals(watch.tracker.agent?.id, "qwen");
    // The command shows in the input box, and Enter goes in before the next reading.
    shown = views.typed;
    watch.submitted();
    // Qwen Code clears its screen and runs its hooks with nothing on screen to say so.
    shown = views.clearing;
    watch.evaluate();
    assertEquals(watch.tracker.state, "working");
  } finally {
    watch.dispose();
  }
});
