/**
 * The app groups panes by host: each host of projects.toml is a group of
 * the sidebar after this machine's projects, its panes followed live
 * through the link; a host's pane opens as a terminal over the link
 * (typing reaches it), and Mark seen marks it seen on its host; a host that
 * cannot be reached says so in its group.
 */

import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  appStatus,
  BROWSER_TEST,
  openApp,
  screenshot,
  waitForTerminal,
  waitOnPage,
  withBrowser,
} from "../helpers/browser.ts";
import { fakeAgentToml, newFakeAgentArgs } from "../helpers/fake_agent.ts";
import { addToConfig, CAN_SSH, withHost } from "../helpers/hosts.ts";
import { BASH } from "../helpers/skiff.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

Deno.test({
  name: "app: panes grouped by host, followed live; a host's pane opens over the link",
  ...BROWSER_TEST,
  ignore: !CAN_SSH,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withHost(async (local, remote) => {
        await addToConfig(
          local,
          ["[hosts.gone]", 'ssh = "127.0.0.1"', 'ssh_options = ["-p", "1"]', ""].join("\n"),
        );
        await local.ok(["new", "--name", "here", "--", ...BASH]);
        await local.ok(["new", "--host", "gpu1", "--name", "web", "--", ...BASH]);
        await local.ok(newFakeAgentArgs("rev", { host: "gpu1", extra: ["--wait-ready"] }));
        const { page, errors } = await openApp(browser, await appStatus(local));
        const host = page.locator('section.group[aria-label="gpu1 (host)"]');
        await host.waitFor({ timeout: 30_000 });
        await host.locator('[data-pane="gpu1:p1"]').waitFor({ timeout: 30_000 });
        assertEquals(await host.locator(".pane-row .row-name").allTextContents(), ["web", "rev"]);
        const gone = page.locator('section.group[aria-label="gone (host)"] .group-note');
        await gone.waitFor({ timeout: 30_000 });
        assertMatch((await gone.textContent())!, /^Unreachable: ssh: connect to host/);
        // This machine's panes come first.
        const names = await page.locator("section.group h2").allTextContents();
        assert(names.indexOf("gpu1 (host)") > names.indexOf("No project"), names.join(", "));

        // Followed live: a turn on the host shows without a reload.
        await local.ok(["send", "gpu1:rev", "SLOW 2500 review it", "--enter"]);
        const revState = host.locator('[data-pane="gpu1:p2"] .state');
        await waitOnPage("rev working", () => revState.textContent(), (t) => t === "working");
        await waitOnPage("rev idle", () => revState.textContent(), (t) => t === "idle");
        await host.locator('[data-pane="gpu1:p2"] .dot.unread').waitFor({ timeout: 20_000 });

        // A host's pane opens as a terminal over the link.
        await host.locator('[data-pane="gpu1:p1"]').click();
        await page.waitForFunction(() => location.hash === "#pane/gpu1:p1");
        await page.locator("#terminal .xterm").click();
        await page.keyboard.type("echo far-$((6*7))");
        await page.keyboard.press("Enter");
        await waitForTerminal(page, /^far-42$/m);
        await remote.skiff.waitForScreen("p1", /^far-42$/m);
        await screenshot(page, "hosts");

        // Mark seen marks the pane seen on its host.
        await host.locator('[data-pane="gpu1:p2"]').click();
        await page.waitForFunction(() => location.hash === "#pane/gpu1:p2");
        await page.locator("#mark-seen:not([disabled])").click();
        const seen = async () =>
          (await remote.skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes.find((p) =>
            p.name === "rev"
          )?.unread;
        await waitOnPage("rev seen on its host", seen, (unread) => unread === false);
        assertEquals(errors, []);
      }, { config: fakeAgentToml() });
    });
  },
});
