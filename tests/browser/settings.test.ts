/**
 * Settings › Skiff agent in the app: the same keys and checks as `skiff
 * settings`, written into projects.toml with its comments kept and still
 * there after a reload; Copy path; the line under the path only when the
 * folder cannot be used; Change… shows the dry run's words, refuses a bad
 * folder with its line and moves to a good one.
 */

import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";

function assertStringIncludes(text: string, part: string): void {
  assert(text.includes(part), `expected ${JSON.stringify(part)} in:\n${text}`);
}
import {
  appStatus,
  BROWSER_TEST,
  openApp,
  screenshot,
  waitOnPage,
  withBrowser,
} from "../helpers/browser.ts";
import { withSkiff } from "../helpers/skiff.ts";

const CONFIG = `# My Skiff config: keep these words
[daemon]
scrollback = 2000 # lines of history

[skiff_agent]
# the agent I use
agent = "claude"
`;

Deno.test({
  name:
    "app settings: each control sets its key with the CLI's checks, keeps the file's comments, and survives a reload",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        await Deno.mkdir(join(skiff.root, "config"), { recursive: true });
        await Deno.writeTextFile(skiff.configFile, CONFIG);
        const { page, errors } = await openApp(browser, await appStatus(skiff), {
          hash: "#settings",
        });
        const home = skiff.env.HOME;
        await page.locator("#set-name").waitFor();
        assertEquals(await page.getByLabel("Skiff agent on", { exact: true }).isChecked(), false);
        assertEquals(await page.getByLabel("Agent", { exact: true }).inputValue(), "claude");
        assertEquals(await page.getByLabel("Name", { exact: true }).inputValue(), "Skipper");
        assertEquals(
          await page.getByLabel("Continue its last conversation after a restore", { exact: true })
            .isChecked(),
          true,
        );
        assertEquals(await page.locator("#folder-path").textContent(), join(home, "skiff-agent"));
        assertEquals(await page.locator("#folder-problem").count(), 0);
        const land = page.getByLabel("Landing a worker's branch (skiff land)", { exact: true });
        assertEquals(await land.inputValue(), "ask");

        const file = () => Deno.readTextFile(skiff.configFile);
        const saved = (text: string) =>
          waitOnPage(`projects.toml to have ${text}`, file, (f) => f.includes(text));

        await page.getByLabel("Skiff agent on", { exact: true }).check();
        await saved("enabled = true");
        await page.getByLabel("Agent", { exact: true }).selectOption("codex");
        await saved('agent = "codex"');
        // A bad name is refused with the CLI's line, and nothing is written.
        await page.getByLabel("Name", { exact: true }).fill("Bad/Name");
        await page.getByRole("button", { name: "Save name" }).click();
        await page.locator("#name-problem", { hasText: "Bad value for 'name'" }).waitFor();
        assert(!(await file()).includes("Bad/Name"));
        await page.getByLabel("Name", { exact: true }).fill("First Mate");
        await page.getByLabel("Name", { exact: true }).press("Enter");
        await saved('name = "First Mate"');
        await page.getByLabel("Continue its last conversation after a restore", { exact: true })
          .uncheck();
        await saved("continue = false");
        await land.selectOption("auto");
        await saved('land = "auto"');

        const text = await file();
        for (
          const kept of [
            "# My Skiff config: keep these words",
            "scrollback = 2000 # lines of history",
            "# the agent I use",
          ]
        ) {
          assertStringIncludes(text, kept);
        }
        const cli = await skiff.json<{ settings: Record<string, unknown> }>(["settings"]);
        assertEquals(cli.settings, {
          enabled: true,
          agent: "codex",
          name: "First Mate",
          continue: false,
          folder: "~/skiff-agent",
          land: "auto",
        });

        await page.reload();
        await page.locator("#set-name").waitFor();
        assertEquals(await page.getByLabel("Skiff agent on", { exact: true }).isChecked(), true);
        assertEquals(await page.getByLabel("Agent", { exact: true }).inputValue(), "codex");
        assertEquals(await page.getByLabel("Name", { exact: true }).inputValue(), "First Mate");
        assertEquals(
          await page.getByLabel("Continue its last conversation after a restore", { exact: true })
            .isChecked(),
          false,
        );
        assertEquals(await land.inputValue(), "auto");
        // The sidebar's row takes the new name.
        assertEquals(await page.locator("#agent-row .row-name").textContent(), "First Mate");

        // Copy path.
        await page.getByRole("button", { name: "Copy path" }).click();
        await page.locator("#copy-status", { hasText: "Copied" }).waitFor();
        assertEquals(
          await page.evaluate("navigator.clipboard.readText()"),
          join(home, "skiff-agent"),
        );

        // The line under the path shows only while the folder cannot be used.
        await Deno.mkdir(join(home, "skiff-agent"));
        await Deno.writeTextFile(join(home, "skiff-agent", "notes.txt"), "mine\n");
        await page.reload();
        await page.locator("#folder-problem", {
          hasText: "holds files that are not the Skiff agent's",
        })
          .waitFor();
        await Deno.remove(join(home, "skiff-agent", "notes.txt"));
        await page.reload();
        await page.locator("#set-name").waitFor();
        assertEquals(await page.locator("#folder-problem").count(), 0);
        assertEquals(errors, []);
      });
    });
  },
});

Deno.test({
  name:
    "app settings: Change… shows the dry run's words, refuses a bad folder with its line, and moves to a good one",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        const home = skiff.env.HOME;
        // A Skiff folder with a ledger in the default place.
        await skiff.ok(["ledger", "add", "--task", "Release 2.0"]);
        const { page, errors } = await openApp(browser, await appStatus(skiff), {
          hash: "#settings",
        });
        await page.getByRole("button", { name: "Change…" }).click();
        const input = page.getByLabel("New folder", { exact: true });

        await input.fill(home);
        await page.getByRole("button", { name: "Check" }).click();
        await page.locator("#move-words [role=alert]", { hasText: "it is your home folder" })
          .waitFor();
        assert(await page.getByRole("button", { name: "Move" }).isDisabled());

        await input.fill("relative/path");
        await page.getByRole("button", { name: "Check" }).click();
        await page.locator("#move-words [role=alert]", {
          hasText: "must be an absolute path or start with ~/",
        })
          .waitFor();

        await input.fill("~/agents/first-mate");
        await page.getByRole("button", { name: "Check" }).click();
        await page.locator("#move-words li", { hasText: "Nothing was changed (--dry-run)." })
          .waitFor();
        const words = await page.locator("#move-words li").allTextContents();
        assertEquals(words, [
          `Would copy ${join(home, "skiff-agent")} to ${
            join(home, "agents", "first-mate")
          }, check the copy, and switch to it.`,
          `Would set [skiff_agent] folder = "~/agents/first-mate" in projects.toml.`,
          `Would leave MOVED.md in ${join(home, "skiff-agent")}; nothing there is deleted.`,
          "Nothing was changed (--dry-run).",
        ]);
        assert(
          !(await Deno.stat(join(home, "agents")).then(() => true, () => false)),
          "a dry run makes nothing",
        );
        await screenshot(page, "settings");

        await page.getByRole("button", { name: "Move" }).click();
        await waitOnPage(
          "the new folder",
          () => page.locator("#folder-path").textContent(),
          (t) => t === join(home, "agents", "first-mate"),
        );
        assertStringIncludes(
          await Deno.readTextFile(skiff.configFile),
          'folder = "~/agents/first-mate"',
        );
        await Deno.stat(join(home, "agents", "first-mate", "ledger.db"));
        await Deno.stat(join(home, "skiff-agent", "MOVED.md"));
        const listed = await skiff.json<{ rows: { task: string }[] }>(["ledger", "ls"]);
        assertEquals(listed.rows.map((r) => r.task), ["Release 2.0"]);
        assertEquals(errors, []);
      });
    });
  },
});
