/**
 * A pane as a live terminal in the app: typing and pasting reach the pane,
 * its output, history and colours come back, the pane follows the page's
 * size, and two pages and a `skiff attach` on one pane stay in step.
 */

import type { Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  appStatus,
  BROWSER_TEST,
  openApp,
  screenshot,
  terminalText,
  waitForTerminal,
  waitOnPage,
  withBrowser,
} from "../helpers/browser.ts";
import { BASH, MAIN, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { TestTerminal } from "../helpers/terminal.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

async function focusTerminal(page: Page): Promise<void> {
  await page.locator("#terminal .xterm").click();
  await waitOnPage(
    "the terminal's focus",
    () => page.evaluate("document.activeElement?.classList.contains('xterm-helper-textarea')"),
    (focused) => focused === true,
  );
}

/** `[attach] detach_key = "C-b"`, and a pane `keys` that shows each key it gets (`cat -v`). */
async function keysPane(skiff: SkiffEnv): Promise<void> {
  await Deno.mkdir(skiff.env.SKIFF_CONFIG_DIR, { recursive: true });
  await Deno.writeTextFile(skiff.configFile, '[attach]\ndetach_key = "C-b"\n');
  await skiff.ok(["new", "--name", "keys", "--", "sh", "-c", "stty -isig; exec cat -v"]);
}

/** The foreground colour of `word` on the first line of the page's terminal that starts with it. */
async function colourOf(page: Page, word: string): Promise<{ palette: boolean; colour: number }> {
  return await page.evaluate(`(() => {
    const buffer = globalThis.skiffTerminal.term.buffer.active;
    for (let y = 0; y < buffer.length; y++) {
      const line = buffer.getLine(y);
      const text = line.translateToString(true);
      const x = text.indexOf(${JSON.stringify(word)});
      if (x === -1 || !text.startsWith("RED ")) continue;
      const cell = line.getCell(x);
      return { palette: cell.isFgPalette(), colour: cell.getFgColor() };
    }
    return { palette: false, colour: -1 };
  })()`);
}

async function pane(skiff: { json: <T>(args: string[]) => Promise<T> }, name: string) {
  const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
  return panes.find((p) => p.name === name)!;
}

Deno.test({
  name:
    "app terminal: typing and paste reach the pane; output, history and colours come back; size follows",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        await skiff.ok(["new", "--name", "web", "--", ...BASH]);
        await skiff.ok(["keys", "web", "for i in $(seq 1 150); do echo hist-$i; done", "Enter"]);
        await skiff.waitForScreen("web", /^hist-150$/m);

        const status = await appStatus(skiff);
        const { page, errors } = await openApp(browser, status, { hash: "#pane/p1" });
        // The first redraw brings the pane's history: the page can scroll back to the start.
        const first = await waitForTerminal(page, /^hist-150$/m);
        assert(/^hist-1$/m.test(first), "the page's scrollback holds the first lines");

        await focusTerminal(page);
        await page.keyboard.type("echo typed-$((6*7))");
        await page.keyboard.press("Enter");
        await skiff.waitForScreen("web", /^typed-42$/m);
        await waitForTerminal(page, /^typed-42$/m);

        // A paste goes in whole (as a bracketed paste when the program asked for one).
        await page.evaluate(`(() => {
          const data = new DataTransfer();
          data.setData("text/plain", "echo pasted-$((40+2))");
          document.activeElement.dispatchEvent(
            new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
          );
        })()`);
        await page.keyboard.press("Enter");
        await skiff.waitForScreen("web", /^pasted-42$/m);

        await page.keyboard.type("printf '\\033[31mRED\\033[0m \\033[1;34mBLUE\\033[0m\\n'");
        await page.keyboard.press("Enter");
        await waitForTerminal(page, /^RED BLUE$/m);
        assertEquals(await colourOf(page, "RED"), { palette: true, colour: 1 });
        assertEquals((await colourOf(page, "BLUE")).colour % 8, 4);

        // The pane takes the page terminal's size.
        const size = () =>
          page.evaluate<{ cols: number; rows: number }>(
            "({ cols: globalThis.skiffTerminal.term.cols, rows: globalThis.skiffTerminal.term.rows })",
          );
        const before = await size();
        await page.setViewportSize({ width: 900, height: 500 });
        const after = await waitOnPage(
          "the page terminal to shrink",
          size,
          (s) => s.cols < before.cols,
        );
        await waitFor("the pane to follow", async () => {
          const p = await pane(skiff, "web");
          return p.cols === after.cols && p.rows === after.rows;
        });
        await page.keyboard.type("stty size");
        await page.keyboard.press("Enter");
        await waitForTerminal(page, new RegExp(`^${after.rows} ${after.cols}$`, "m"));

        // A reload of skiffd drops the page's connections; the terminal attaches again.
        await skiff.ok(["daemon", "reload"]);
        await page.locator("body[data-link=live]").waitFor();
        await waitOnPage(
          "the terminal to attach again",
          async () => (await pane(skiff, "web")).attached,
          (n) => n === 1,
        );
        await focusTerminal(page);
        await page.keyboard.type("echo after-reload");
        await page.keyboard.press("Enter");
        await skiff.waitForScreen("web", /^after-reload$/m);
        assertEquals(errors, []);
      });
    });
  },
});

Deno.test({
  name: "app terminal: two pages and a skiff attach on one pane stay in step",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        await skiff.ok(["new", "--name", "pair", "--", ...BASH]);
        await skiff.ok(["keys", "pair", "printf '\\033[32mready\\033[0m\\n'", "Enter"]);
        await skiff.waitForScreen("pair", /^ready$/m);
        const status = await appStatus(skiff);
        const a = await openApp(browser, status, { hash: "#pane/p1" });
        const b = await openApp(browser, status, { hash: "#pane/p1", colorScheme: "dark" });
        const term = await TestTerminal.start(
          [Deno.execPath(), "run", "-A", "-q", MAIN, "attach", "pair"],
          { env: skiff.env, cwd: skiff.env.HOME, cols: 100, rows: 30 },
        );
        try {
          await waitFor(
            "three terminals attached",
            async () => (await pane(skiff, "pair")).attached === 3,
          );
          await waitForTerminal(a.page, /^ready$/m);
          await waitForTerminal(b.page, /^ready$/m);

          await focusTerminal(a.page);
          await a.page.keyboard.type("echo from-page-a");
          await a.page.keyboard.press("Enter");
          await waitForTerminal(b.page, /^from-page-a$/m);
          await term.waitForText(/^from-page-a$/m);

          term.type("echo from-attach\r");
          await waitForTerminal(a.page, /^from-attach$/m);
          await waitForTerminal(b.page, /^from-attach$/m);

          await focusTerminal(b.page);
          await b.page.keyboard.type("echo from-page-b");
          await b.page.keyboard.press("Enter");
          await waitForTerminal(a.page, /^from-page-b$/m);
          await term.waitForText(/^from-page-b$/m);

          await a.page.keyboard.type("ls --color=always / | head -n 5");
          await a.page.keyboard.press("Enter");
          await waitForTerminal(a.page, /^bin/m);
          await screenshot(a.page, "terminal");
          await screenshot(b.page, "terminal-dark");

          // The pane ends: every page says so.
          await focusTerminal(a.page);
          await a.page.keyboard.type("exit");
          await a.page.keyboard.press("Enter");
          for (const page of [a.page, b.page]) {
            await page.locator("#pane-head .note", { hasText: "[exited]" }).waitFor();
          }
          assert((await terminalText(b.page)).includes("from-page-b"));
          assertEquals([...a.errors, ...b.errors], []);
        } finally {
          term.kill();
        }
      });
    });
  },
});

Deno.test({
  name: "app terminal: [attach] detach_key leaves the terminal, and Ctrl+\\ reaches the pane",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        await keysPane(skiff);
        const { page, errors } = await openApp(browser, await appStatus(skiff), {
          hash: "#pane/p1",
        });
        await focusTerminal(page);
        await page.keyboard.press("Control+Backslash");
        await page.keyboard.type("x");
        await page.keyboard.press("Enter");
        await skiff.waitForScreen("keys", /^\^\\x$/m);
        // Ctrl+b gives the keyboard back to the pane's row.
        await page.keyboard.press("Control+b");
        await waitOnPage(
          "the pane's row to have the focus",
          () => page.evaluate("document.activeElement?.dataset?.pane"),
          (focused) => focused === "p1",
        );
        assertEquals(errors, []);
      });
    });
  },
});

Deno.test({
  name: "app terminal: keys typed before it is attached reach the pane in order, the detach key " +
    "of [attach] sorted out once it is known",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        await keysPane(skiff);
        const { page, errors } = await openApp(browser, await appStatus(skiff));
        // The terminal's socket reaches skiffd only when the test lets it: until then the
        // page cannot know the detach key, nor has it a pane to type into.
        let open = () => {};
        const gate = new Promise<void>((resolve) => open = resolve);
        await page.routeWebSocket(/\/ws\/terminal/, async (ws) => {
          await gate;
          ws.connectToServer();
        });
        await page.evaluate(() => location.hash = "#pane/p1");
        await focusTerminal(page);
        await page.keyboard.press("Control+Backslash");
        await page.keyboard.type("early");
        await page.keyboard.press("Enter");
        open();
        await skiff.waitForScreen("keys", /^\^\\early$/m);
        assertEquals(errors, []);
      });
    });
  },
});
