/**
 * The app's sidebar in Chromium: projects with their sessions and panes
 * (name, agent, state, unread dot), panes of no project in their own group,
 * and live changes from skiffd's events; marking a pane seen from the page.
 */

import { join } from "node:path";
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
import { BASH, withSkiff } from "../helpers/skiff.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

/** What the sidebar shows for one pane row, read in one go (the sidebar redraws as events come). */
async function row(page: Page, name: string) {
  return await page.evaluate<
    | { group: string; session: string; agent: string; state: string; unread: boolean }
    | undefined
  >(`(() => {
    const button = [...document.querySelectorAll(".pane-row")]
      .find((b) => b.querySelector(".row-name")?.textContent === ${JSON.stringify(name)});
    if (!button) return undefined;
    return {
      group: button.closest(".group")?.querySelector(".group-name")?.textContent,
      session: button.closest(".session")?.querySelector(".session-name")?.textContent,
      agent: button.querySelector(".row-agent")?.textContent,
      state: button.querySelector(".state")?.textContent,
      unread: button.querySelector(".dot.unread") !== null,
    };
  })()`);
}

Deno.test({
  name:
    "app sidebar: projects, sessions, panes with agent, state and unread, following skiffd live",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        await useFakeAgent(skiff);
        const root = join(skiff.root, "web");
        await Deno.mkdir(root);
        await skiff.ok(["project", "add", "web", root]);
        await Deno.mkdir(join(skiff.root, "docs-folder"));
        await skiff.ok(["project", "add", "docs", join(skiff.root, "docs-folder")]);
        await skiff.ok([
          "new",
          "--project",
          "web",
          "--name",
          "coder",
          "--agent",
          "fake",
          "--env",
          "FAKE_TURN_MS=1500",
        ]);
        await skiff.ok(["new", "--name", "loose", "--", ...BASH]);
        await skiff.ok(["wait", "coder", "--until", "idle", "--timeout", "30"]);

        const { page, errors } = await openApp(browser, await appStatus(skiff));
        const coder = await waitOnPage(
          "coder idle",
          () => row(page, "coder"),
          (r) => r?.state === "idle",
        );
        assertEquals(coder, {
          group: "web",
          session: "coder",
          agent: "fake",
          state: "idle",
          unread: false,
        });
        assertEquals(await row(page, "loose"), {
          group: "No project",
          session: "loose",
          agent: "",
          state: "shell",
          unread: false,
        });
        assertEquals(
          await page.locator(".group", { hasText: "docs" }).locator(".group-note").textContent(),
          "No panes",
        );

        // A turn: the row goes working, then idle with the unread dot, with no reload.
        await skiff.ok(["send", "coder", "SLOW 1500 build it", "--enter"]);
        await waitOnPage("coder working", () => row(page, "coder"), (r) => r?.state === "working");
        const done = await waitOnPage(
          "coder idle and unread",
          () => row(page, "coder"),
          (r) => r?.state === "idle" && r.unread,
        );
        assert(done);
        assertEquals(await page.title(), "● Skiff");

        // A pane made elsewhere shows up.
        await skiff.ok([
          "new",
          "--project",
          "web",
          "--name",
          "later",
          "--session",
          "coder",
          "--",
          ...BASH,
        ]);
        const later = await waitOnPage(
          "the new pane",
          () => row(page, "later"),
          (r) => r !== undefined,
        );
        assertEquals([later!.group, later!.session], ["web", "coder"]);

        // Marking it seen from the page clears the flag in skiffd, as `skiff seen` does.
        await page.locator(".pane-row", { hasText: "coder" }).click();
        await page.locator("#pane-head h1", { hasText: "coder" }).waitFor();
        await waitForTerminal(page, /Fake Agent 1\.0/);
        await screenshot(page, "sidebar");
        await page.getByRole("button", { name: "Mark seen" }).click();
        await waitOnPage("the dot to go", () => row(page, "coder"), (r) => r?.unread === false);
        const listed = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
        assertEquals(listed.panes.find((p) => p.name === "coder")?.unread, false);
        assert(await page.getByRole("button", { name: "Mark seen" }).isDisabled());

        // A pane killed elsewhere goes.
        await skiff.ok(["kill", "loose"]);
        await waitOnPage("loose to go", () => row(page, "loose"), (r) => r === undefined);
        assertEquals(errors, []);
      });
    });
  },
});

Deno.test({
  name: "app sidebar: the keyboard moves between rows and opens one; Ctrl+\\ leaves the terminal",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        await skiff.ok(["new", "--name", "one", "--", ...BASH]);
        await skiff.ok(["new", "--name", "two", "--", ...BASH]);
        const { page, errors } = await openApp(browser, await appStatus(skiff));
        await page.locator(".pane-row", { hasText: "two" }).waitFor();
        await page.locator("#agent-row").focus();
        await page.keyboard.press("ArrowDown");
        await page.keyboard.press("ArrowDown");
        assertEquals(await page.evaluate("document.activeElement?.dataset?.pane"), "p2");
        await page.keyboard.press("Enter");
        await page.locator("#pane-head h1", { hasText: "two" }).waitFor();
        // The terminal has the keyboard; Ctrl+\ gives it back to the pane's row.
        await waitOnPage(
          "the terminal's focus",
          () =>
            page.evaluate("document.activeElement?.classList.contains('xterm-helper-textarea')"),
          (f) => f === true,
        );
        await page.keyboard.press("Control+Backslash");
        // Before the terminal is attached, the key waits until the detach key is known.
        await waitOnPage(
          "the pane's row to have the focus",
          () => page.evaluate("document.activeElement?.dataset?.pane"),
          (pane) => pane === "p2",
        );
        // Every control has a visible label tied to it.
        await page.goto(page.url().replace(/#.*$/, "") + "#settings");
        await page.locator("#set-name").waitFor();
        const unlabelled = await page.evaluate(`[...document.querySelectorAll(
          "input, select, textarea:not(.xterm-helper-textarea)")]
          .filter((el) => !el.labels?.length).map((el) => el.id || el.outerHTML)`);
        assertEquals(unlabelled, []);
        assertEquals(errors, []);
      });
    });
  },
});
