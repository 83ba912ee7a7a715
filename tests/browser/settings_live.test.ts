/**
 * Open pages follow `projects.toml`: a setting changed in one page, or with
 * `skiff settings set` in a terminal, shows in every other open page without
 * a reload (its controls and its sidebar), and a page keeps the name being
 * typed in it. A malformed file does not break a page: it shows the line the
 * CLI prints, until the file is mended.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import {
  appStatus,
  BROWSER_TEST,
  openApp,
  screenshot,
  waitOnPage,
  withBrowser,
} from "../helpers/browser.ts";
import { withSkiff } from "../helpers/skiff.ts";
import { join } from "node:path";
import type { Page } from "playwright-core";

const CONFIG = `# Mine: keep this line
[skiff_agent]
agent = "claude"
`;

function checked(page: Page, label: string): Promise<boolean> {
  return page.getByLabel(label, { exact: true }).isChecked();
}

function value(page: Page, label: string): Promise<string> {
  return page.getByLabel(label, { exact: true }).inputValue();
}

function agentName(page: Page): Promise<string | null> {
  return page.locator("#agent-row .row-name").textContent();
}

Deno.test({
  name:
    "app settings: a change in one page or a terminal shows in the others live; a broken projects.toml shows the CLI's line",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        await Deno.mkdir(join(skiff.root, "config"), { recursive: true });
        await Deno.writeTextFile(skiff.configFile, CONFIG);
        const status = await appStatus(skiff);
        const a = await openApp(browser, status, { hash: "#settings" });
        const b = await openApp(browser, status, { hash: "#settings" });
        const pages = [a.page, b.page];
        for (const page of pages) await page.locator("#set-name").waitFor();
        await b.page.evaluate("window.skiffSamePage = true");
        assertEquals(await checked(b.page, "Skiff agent on"), false);

        // One page changes a setting: the other follows, controls and sidebar.
        await a.page.getByLabel("Skiff agent on", { exact: true }).check();
        await waitOnPage(
          "page B to show the agent on",
          () => checked(b.page, "Skiff agent on"),
          (on) => on,
        );
        await waitOnPage(
          "page B's sidebar to show the agent on",
          () => b.page.locator("#agent-row .state").textContent(),
          (t) => t === "not started",
        );

        // A terminal changes one: both pages follow.
        await skiff.ok(["settings", "set", "name", "First Mate"]);
        for (const page of pages) {
          await waitOnPage("the new name", () => value(page, "Name"), (v) => v === "First Mate");
          await waitOnPage("the sidebar's name", () => agentName(page), (t) => t === "First Mate");
        }

        // A name half typed in page B stays, with the keyboard, while a terminal changes another key.
        const name = b.page.getByLabel("Name", { exact: true });
        await name.fill("Half typ");
        await skiff.ok(["settings", "set", "agent", "codex"]);
        await waitOnPage("page B's agent", () => value(b.page, "Agent"), (v) => v === "codex");
        assertEquals(await value(b.page, "Name"), "Half typ");
        assertEquals(await b.page.evaluate("document.activeElement?.id"), "set-name");
        assertEquals(await value(a.page, "Agent"), "codex");

        // A malformed file: every page shows the CLI's line and keeps working.
        const good = await Deno.readTextFile(skiff.configFile);
        assert(good.includes("# Mine: keep this line"));
        await Deno.writeTextFile(skiff.configFile, `${good}\n[skiff_agent\nname = "x"\n`);
        const cli = await skiff.run(["settings"]);
        assertEquals(cli.code, 2);
        const line = cli.stderr.replace(/^skiff: /, "").trim();
        assert(line.includes(skiff.configFile), line);
        for (const page of pages) {
          await page.locator("#config-problem", { hasText: line }).waitFor({ timeout: 15_000 });
          await page.locator("#settings-problem", { hasText: line }).waitFor();
          assertEquals(await page.locator("#set-name").count(), 0);
          assertEquals(await agentName(page), "First Mate", "the sidebar keeps what it had");
        }
        await screenshot(b.page, "settings-broken");

        // Mended: the controls come back with the file's values, and the line goes.
        await Deno.writeTextFile(skiff.configFile, good);
        for (const page of pages) {
          await page.locator("#set-name").waitFor({ timeout: 15_000 });
          assertEquals(await page.locator("#config-problem").isHidden(), true);
          assertEquals(await value(page, "Agent"), "codex");
          assertEquals(await checked(page, "Skiff agent on"), true);
        }
        assertEquals(await b.page.evaluate("window.skiffSamePage"), true, "page B never reloaded");
        assertEquals(a.errors, []);
        assertEquals(b.errors, []);
      });
    });
  },
});
