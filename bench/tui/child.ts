/**
 * One TUI library drawing the same screen on a real terminal (200×60): a
 * header, a list of 200 panes (58 shown, one selected) and a preview box of
 * 40 coloured lines. It reports, as one JSON line to the file named by
 * `TUI_RESULT`: the import's time, the first frame's time after the process
 * started, the median redraw after the selection moved, and memory.
 *
 * Run by `bench/tui/libs.ts`; `deno run -A bench/tui/child.ts LIB`.
 *
 * @module
 */

import process from "node:process";

const LIB = Deno.args[0];
const COLS = 200;
const ROWS = 60;
const REDRAWS = 60;
const ITEMS = Array.from({ length: 200 }, (_, i) => ({
  name: `pane-${i}`,
  agent: i % 3 ? "claude" : "-",
  state: ["working", "idle", "waiting", "shell"][i % 4],
}));
const PREVIEW = Array.from({ length: 40 }, (_, i) => `line ${i}: some output of the selected pane`);

/** Every write to the terminal resolves the waiter (writes through node's stream or Deno's). */
let wrote: (() => void) | undefined;
const originalWrite = process.stdout.write.bind(process.stdout);
process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
  const result = (originalWrite as (...a: unknown[]) => boolean)(chunk, ...rest);
  wrote?.();
  return result;
}) as typeof process.stdout.write;
const nextWrite = () => new Promise<void>((resolve) => wrote = resolve);

function listLine(i: number, selected: number, width: number): string {
  const item = ITEMS[i];
  const text = `${i === selected ? "›" : " "} ${item.name.padEnd(20)}${item.agent.padEnd(9)}${
    item.state.padEnd(9)
  }`;
  return text.padEnd(width).slice(0, width);
}

interface Drawer {
  /** Draws with `selected`; resolves when written. */
  draw(selected: number): Promise<void>;
  stop(): void;
}

async function hand(): Promise<Drawer> {
  const { Painter } = await import("../../lib/dash/draw/mod.ts");
  const encoder = new TextEncoder();
  const painter = new Painter((text) => {
    Deno.stdout.writeSync(encoder.encode(text));
  });
  Deno.stdout.writeSync(encoder.encode("\x1b[?1049h"));
  return {
    draw(selected) {
      const lines = [`\x1b[7m Skiff 200 panes${" ".repeat(COLS - 16)}\x1b[0m`];
      for (let r = 0; r < ROWS - 2; r++) {
        const list = listLine(r, selected, 80);
        const side = PREVIEW[r] ? `\x1b[32m${PREVIEW[r].padEnd(119)}\x1b[0m` : " ".repeat(119);
        lines.push((r === selected ? `\x1b[7m${list}\x1b[0m` : list) + "│" + side);
      }
      lines.push("j/k move".padEnd(COLS));
      painter.paint(lines);
      return Promise.resolve();
    },
    stop: () => Deno.stdout.writeSync(encoder.encode("\x1b[?1049l")),
  };
}

async function ink(): Promise<Drawer> {
  const React = (await import("react")).default;
  const { render, Box, Text } = await import("ink");
  const h = React.createElement;
  const App = ({ selected }: { selected: number }) =>
    h(
      Box,
      { flexDirection: "column", width: COLS, height: ROWS },
      h(Text, { inverse: true }, " Skiff 200 panes"),
      h(
        Box,
        { flexDirection: "row", height: ROWS - 2 },
        h(
          Box,
          { flexDirection: "column", width: 80 },
          ...ITEMS.slice(0, ROWS - 2).map((_, i) =>
            h(
              Text,
              { key: i, inverse: i === selected, wrap: "truncate" },
              listLine(i, selected, 80),
            )
          ),
        ),
        h(
          Box,
          { flexDirection: "column", borderStyle: "single", flexGrow: 1 },
          ...PREVIEW.map((line, i) => h(Text, { key: i, color: "green", wrap: "truncate" }, line)),
        ),
      ),
      h(Text, {}, "j/k move"),
    );
  let instance: { rerender: (node: unknown) => void; unmount: () => void } | undefined;
  return {
    async draw(selected) {
      const written = nextWrite();
      if (!instance) {
        instance = render(h(App, { selected }), { maxFps: 1000, patchConsole: false }) as never;
      } else instance.rerender(h(App, { selected }));
      await written;
    },
    stop: () => instance?.unmount(),
  };
}

async function piTui(): Promise<Drawer> {
  const { TUI, ProcessTerminal } = await import("@mariozechner/pi-tui");
  let selected = 0;
  const screen = {
    render(width: number): string[] {
      const lines = [` Skiff 200 panes`.padEnd(width).slice(0, width)];
      for (let r = 0; r < ROWS - 2; r++) {
        const list = listLine(r, selected, 80);
        const side = (PREVIEW[r] ?? "").padEnd(width - 81).slice(0, width - 81);
        lines.push(
          (r === selected ? `\x1b[7m${list}\x1b[0m` : list) + "│" + `\x1b[32m${side}\x1b[0m`,
        );
      }
      lines.push("j/k move");
      return lines;
    },
    invalidate() {},
  };
  const tui = new TUI(new ProcessTerminal());
  tui.addChild(screen as never);
  let started = false;
  return {
    async draw(next) {
      selected = next;
      const written = nextWrite();
      if (!started) {
        started = true;
        tui.start();
      } else tui.requestRender();
      await written;
    },
    stop: () => tui.stop(),
  };
}

async function terminalKit(): Promise<Drawer> {
  const kit = (await import("terminal-kit")).default as unknown as {
    terminal: { fullscreen: (on: boolean) => void };
    ScreenBuffer: {
      create: (options: Record<string, unknown>) => {
        put: (options: Record<string, unknown>, text: string) => void;
        draw: (options: Record<string, unknown>) => void;
      };
    };
  };
  const term = kit.terminal;
  term.fullscreen(true);
  const buffer = kit.ScreenBuffer.create({ dst: term, width: COLS, height: ROWS });
  return {
    async draw(selected) {
      const written = nextWrite();
      buffer.put({ x: 0, y: 0, attr: { inverse: true } }, " Skiff 200 panes");
      for (let r = 0; r < ROWS - 2; r++) {
        buffer.put(
          { x: 0, y: r + 1, attr: { inverse: r === selected } },
          listLine(r, selected, 80),
        );
        buffer.put({ x: 80, y: r + 1, attr: {} }, "│");
        buffer.put({ x: 81, y: r + 1, attr: { color: "green" } }, (PREVIEW[r] ?? "").padEnd(119));
      }
      buffer.put({ x: 0, y: ROWS - 1, attr: {} }, "j/k move");
      buffer.draw({ delta: true });
      await written;
    },
    stop: () => term.fullscreen(false),
  };
}

const LOADERS: Record<string, () => Promise<Drawer>> = {
  hand,
  ink,
  "pi-tui": piTui,
  "terminal-kit": terminalKit,
};

const importStart = performance.now();
const drawer = await LOADERS[LIB]();
const importMs = performance.now() - importStart;
await drawer.draw(0);
const firstFrameMs = performance.now();
const redraws: number[] = [];
for (let i = 1; i <= REDRAWS; i++) {
  const start = performance.now();
  await drawer.draw(i % (ROWS - 2));
  redraws.push(performance.now() - start);
}
redraws.sort((a, b) => a - b);
const result = {
  lib: LIB,
  importMs,
  firstFrameMs,
  redrawMs: redraws[Math.floor(redraws.length / 2)],
  rssMb: Deno.memoryUsage().rss / 1048576,
};
drawer.stop();
Deno.writeTextFileSync(Deno.env.get("TUI_RESULT")!, JSON.stringify(result) + "\n", {
  append: true,
});
Deno.exit(0);
