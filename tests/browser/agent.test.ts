/**
 * The Skiff agent's row in the app: its icon follows the watcher (teal and
 * still, teal and turning, red), never turns under reduced motion, and
 * opening the row does what `skiff skipper` does.
 */

import type { Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  appStatus,
  BROWSER_TEST,
  openApp,
  screenshot,
  waitForTerminal,
  waitOnPage,
  withBrowser,
} from "../helpers/browser.ts";
import { useFakeAgent } from "../helpers/fake_agent.ts";
import { withSkiff } from "../helpers/skiff.ts";
import { sendTask, startWatchRig, startWorker, waitWatcher } from "../helpers/watch.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

/** The icon as a person sees it: its state, its colour and whether it turns. */
async function icon(page: Page) {
  return await page.evaluate<{ state: string; colour: string; animation: string }>(`(() => {
    const el = document.getElementById("agent-icon");
    return {
      state: el.dataset.state,
      colour: getComputedStyle(el).color,
      animation: getComputedStyle(el.querySelector("svg")).animationName,
    };
  })()`);
}

const TEAL = "rgb(15, 143, 132)";
const RED = "rgb(200, 52, 43)";

Deno.test({
  name:
    "app agent icon: teal and still, teal and turning while a followed pane works, red when the watcher fails or stops",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        const rig = await startWatchRig(skiff);
        await startWorker(skiff, "rev");
        const status = await appStatus(skiff);
        const { page, errors } = await openApp(browser, status);
        const calm = await openApp(browser, status, { reducedMotion: true });

        assertEquals(await icon(page), { state: "still", colour: TEAL, animation: "none" });

        // A followed pane works while the Skiff agent is idle: the wheel turns.
        const uid = await sendTask(skiff, "rev", "SLOW 8000 review the parser");
        await waitWatcher(skiff, (w) => w.watching.length === 1);
        assertEquals(
          await waitOnPage("the turning icon", () => icon(page), (i) => i.state === "turning"),
          { state: "turning", colour: TEAL, animation: "helm" },
        );
        // With reduced motion it shows the same state and never turns.
        assertEquals(
          await waitOnPage("the calm icon", () => icon(calm.page), (i) => i.state === "turning"),
          { state: "turning", colour: TEAL, animation: "none" },
        );
        await screenshot(page, "sidebar-agent");
        assert(uid.length === 8);

        // The turn ends and the agent hears of it; the wheel stops.
        await waitOnPage("the icon to stop", () => icon(page), (i) => i.state === "still", {
          timeout: 30_000,
        });

        // The Skiff agent takes the next line but starts no turn: the last line failed.
        await Deno.writeTextFile(rig.noTurnFile, "");
        await sendTask(skiff, "rev", "Again");
        await waitWatcher(skiff, (w) => w.ok === false, 30_000);
        assertEquals(
          await waitOnPage("the red icon", () => icon(page), (i) => i.state === "alarm"),
          { state: "alarm", colour: RED, animation: "none" },
        );
        assert(
          (await page.locator("#agent-row").getAttribute("aria-describedby")) ===
            "agent-icon-meaning",
        );
        assert(
          (await page.locator("#agent-icon-meaning").textContent())!.startsWith(
            "The watcher's last line failed",
          ),
        );
        await Deno.remove(rig.noTurnFile);

        // No watcher runs: red and still.
        const watcher = await skiff.watcherPid();
        Deno.kill(watcher!, "SIGKILL");
        await waitWatcher(skiff, (w) => !w.running);
        await waitOnPage(
          "the icon to say the watcher stopped",
          () => page.locator("#agent-icon-meaning").textContent(),
          (t) => t === "The watcher is not running",
        );
        assertEquals((await icon(page)).state, "alarm");
        assertEquals([...errors, ...calm.errors], []);
      });
    });
  },
});

Deno.test({
  name:
    "app agent row: off says so; on, opening it starts the Skiff agent as skiff skipper does, and opens its terminal",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        await useFakeAgent(skiff);
        const { page, errors } = await openApp(browser, await appStatus(skiff));
        assertEquals(await page.locator("#agent-row .state").textContent(), "off");
        await page.locator("#agent-row").click();
        await page.locator("#agent-problem", { hasText: "The Skiff agent is off" }).waitFor();

        await skiff.ok(["settings", "set", "agent", "fake"]);
        await skiff.ok(["settings", "set", "enabled", "true"]);
        await page.reload();
        await page.locator("#agent-row .state", { hasText: "not started" }).waitFor();
        await page.locator("#agent-row").click();
        await page.locator("#pane-head h1", { hasText: "Skipper" }).waitFor();
        await waitForTerminal(page, /Fake Agent 1\.0/);
        const status = await skiff.json<{ running: boolean; pane: PaneInfo }>([
          "skipper",
          "status",
        ]);
        assertEquals([status.running, status.pane.name], [true, "Skipper"]);
        await waitOnPage(
          "the row to show the agent idle",
          () => page.locator("#agent-row .state").textContent(),
          (t) => t === "idle",
          { timeout: 30_000 },
        );
        assertEquals(await page.locator("#agent-row").getAttribute("aria-current"), "true");

        // A second open finds the session; it starts nothing more.
        await page.goto(page.url().replace(/#.*$/, "#"));
        await page.locator("#agent-row").click();
        await page.locator("#pane-head h1", { hasText: "Skipper" }).waitFor();
        const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls", "--mark", "skiff-agent"]);
        assertEquals(panes.length, 1);
        assertEquals(errors, []);
      });
    });
  },
});
