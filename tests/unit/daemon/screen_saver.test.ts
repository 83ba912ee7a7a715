import { join } from "node:path";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { waitFor } from "../../helpers/skiff.ts";
import { Screen } from "../../../lib/screen/screen.ts";
import type { Pane } from "../../../lib/daemon/panes/pane.ts";
import { BUDGET_MS, MAX_DELAY_MS, ScreenSaver } from "../../../lib/daemon/screens/screen_saver.ts";
import { ScreenStore } from "../../../lib/daemon/screens/screen_store.ts";

const encoder = new TextEncoder();

/** The parts of a pane the saver uses. */
function fakePane(id: string, scrollback = 100): Pane & { print(text: string): void } {
  const screen = new Screen(40, 5, { scrollback, respond: () => {} });
  return {
    id,
    screen,
    print: (text: string) => screen.writeSync(encoder.encode(text)),
  } as unknown as Pane & { print(text: string): void };
}

function lines(n: number, from = 0): string {
  let text = "";
  for (let i = from; i < from + n; i++) text += `row ${i}\r\n`;
  return text;
}

async function withStore(
  body: (store: ScreenStore, dir: string, log: string[]) => Promise<void> | void,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const log: string[] = [];
  try {
    await body(new ScreenStore(join(dir, "screens"), { log: (l) => log.push(l) }), dir, log);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("screen saver: a changed pane is saved once it goes quiet, and only its new lines are appended", async () => {
  await withStore(async (store) => {
    const saver = new ScreenSaver({ store, log: () => {} });
    const pane = fakePane("p1");
    saver.add(pane, { scrollback: 100 });
    try {
      pane.print(lines(20));
      saver.changed(pane);
      await waitFor("a save", () => saver.stats.saves === 1, { timeout: MAX_DELAY_MS + 2000 });
      const first = Deno.statSync(join(store.dir, "p1.history")).size;
      pane.print(lines(3, 20));
      saver.changed(pane);
      saver.saveNow(pane);
      const second = Deno.statSync(join(store.dir, "p1.history")).size;
      assert(second - first < first / 3, "the second save appends three lines, not twenty-three");
      const loaded = store.load("p1")!;
      assertEquals(loaded.history.lines, 19);
      const copy = new Screen(40, 5, { scrollback: 100, respond: () => {} });
      try {
        copy.restore(loaded.screen);
        assertEquals(copy.lines({ scrollback: 100 }), pane.screen.lines({ scrollback: 100 }));
      } finally {
        copy.dispose();
      }
    } finally {
      saver.stop();
      pane.screen.dispose();
    }
  });
});

Deno.test("screen saver: a pane that prints without end keeps a bounded history file", async () => {
  await withStore((store) => {
    const saver = new ScreenSaver({ store, log: () => {} });
    const pane = fakePane("p1", 100);
    saver.add(pane, { scrollback: 100 });
    try {
      for (let round = 0; round < 40; round++) {
        pane.print(lines(90, round * 90));
        saver.changed(pane);
        saver.saveNow(pane);
      }
      const loaded = store.load("p1")!;
      // The history file starts over once it holds more than 1000 lines (2 × 100, at least 1000).
      assert(loaded.history.lines <= 1000 + 90, `${loaded.history.lines} lines`);
      assert(loaded.screen.history.includes("row 3594"), "the newest lines are there");
    } finally {
      saver.stop();
      pane.screen.dispose();
    }
  });
});

Deno.test("screen saver: one round stops after its budget; the rest wait for the next round", async () => {
  await withStore(async (store) => {
    const saver = new ScreenSaver({ store, log: () => {} });
    const panes = Array.from({ length: 12 }, (_, i) => fakePane(`p${i + 1}`, 2000));
    try {
      for (const pane of panes) {
        saver.add(pane, { scrollback: 2000 });
        pane.print(lines(2000).replaceAll("row", "\x1b[32mrow\x1b[0m"));
        saver.changed(pane);
      }
      // Each first save writes 2000 lines: a round of BUDGET_MS holds a few, never all twelve.
      // (Coloured: plain lines are read straight from the cells, too fast to fill a round.)
      const first = await waitFor("a first round", () => saver.stats.saves || undefined);
      assert(first < panes.length, `the first rounds saved ${first} of ${panes.length}`);
      await waitFor("every pane saved", () => saver.stats.saves === panes.length, {
        timeout: 60_000,
      });
      assert(saver.stats.total_ms > BUDGET_MS, "the work was spread over several rounds");
    } finally {
      saver.stop();
      for (const pane of panes) pane.screen.dispose();
    }
  });
});

Deno.test("screen saver: a failed save logs once and writes the whole history the next time", async () => {
  await withStore(async (store, dir, log) => {
    const saver = new ScreenSaver({ store, log: (l) => log.push(l) });
    const pane = fakePane("p1");
    saver.add(pane, { scrollback: 100 });
    try {
      pane.print(lines(10));
      saver.changed(pane);
      saver.saveNow(pane);
      // The folder refuses writes (a file where it should be).
      await Deno.remove(join(dir, "screens"), { recursive: true });
      await Deno.writeTextFile(join(dir, "screens"), "not a folder");
      pane.print(lines(10, 10));
      saver.changed(pane);
      saver.saveNow(pane);
      pane.print(lines(2, 20));
      saver.changed(pane);
      saver.saveNow(pane);
      assertEquals(log.filter((l) => l.startsWith("cannot save")).length, 1, log.join("\n"));
      assertEquals(
        saver.stats.failures,
        2,
        "each save tried failed, and only the first was logged",
      );
      await Deno.remove(join(dir, "screens"));
      saver.changed(pane);
      saver.saveNow(pane);
      const loaded = store.load("p1")!;
      assert(loaded.screen.history.includes("row 0") && loaded.screen.history.includes("row 12"));
      assert(log.some((l) => l === "screens are saved again"));
    } finally {
      saver.stop();
      pane.screen.dispose();
    }
  });
});
