/**
 * The app's Diff view in Chromium, against real git worktrees: the pane
 * header's way to it with the listing's counts, every changed file listed
 * with `skiff diff --json`'s own numbers, the lines drawn by diff2html in the
 * page's colours (light and dark), a diff of 2,000 files drawn as it comes
 * into view, a pane without a worktree told in one line; and the Land
 * button: its question, a landing checked with git, a conflict that changes
 * nothing.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  appStatus,
  BROWSER_TEST,
  openApp,
  screenshot,
  waitOnPage,
  withBrowser,
} from "../helpers/browser.ts";
import { addProject, commitAll, defaultWorktreePath, git, makeRepo } from "../helpers/git.ts";
import { commitFiles, landingRepo, shellInWorktree, snapshot } from "../helpers/land.ts";
import { BASH, type SkiffEnv, withSkiff } from "../helpers/skiff.ts";

/** `skiff diff PANE --json`'s files: path, added and removed. */
async function cliFiles(skiff: SkiffEnv, pane: string): Promise<string[]> {
  const diff = await skiff.json<{ changes: { path: string; added: number; removed: number }[] }>(
    ["diff", pane, "--stat"],
  );
  return diff.changes.map((f) => `${f.path} +${f.added} −${f.removed}`);
}

/** The Diff view's file list as the page shows it: `path +a −r` each. */
function listedFiles(page: import("playwright-core").Page): Promise<string[]> {
  return page.evaluate(`[...document.querySelectorAll("#diff-file-list li")].map((li) =>
    li.dataset.path + " " + li.querySelector(".diff-counts").innerText)`);
}

Deno.test({
  name: "app diff: the header's Diff link, the files with skiff diff's counts, diff2html's lines",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        const repo = await makeRepo(join(skiff.root, "repo"));
        await addProject(skiff, "demo", repo);
        await skiff.ok(["new", "--project", "demo", "--worktree", "fix-a", "--", ...BASH]);
        await skiff.ok(["new", "--name", "plain", "--", ...BASH]);
        const wt = defaultWorktreePath(skiff, "demo", "fix-a");
        await Deno.writeTextFile(join(wt, "app.txt"), "one\nTWO\nthree\nfour\n");
        commitAll(wt, "Change app.txt");
        await Deno.writeTextFile(join(wt, "README.md"), "# demo, edited\n");
        await Deno.writeTextFile(join(wt, "fresh.txt"), "drawn-by-diff2html\n");
        // The listing counts what skiff diff counts.
        const expected = await cliFiles(skiff, "p1");
        assertEquals(expected.length, 3);

        const status = await appStatus(skiff);
        for (const scheme of ["light", "dark"] as const) {
          const { page, context, errors } = await openApp(browser, status, {
            hash: "pane/p1",
            colorScheme: scheme,
          });
          const link = page.locator("#open-diff");
          await waitOnPage(
            "the header's Diff link",
            () => link.innerText(),
            (t) => /\+4 −2/.test(t),
          );
          await link.click();
          await page.locator("#diff-file-list").waitFor();
          assertEquals(new URL(page.url()).hash, "#diff/p1");
          assertEquals((await listedFiles(page)).sort(), expected.sort());
          assertMatch(
            await page.locator("#diff-meta").innerText(),
            /skiff\/fix-a → .* · 3 files · \+4 −2/,
          );
          // diff2html draws each file: the new file's line, an edit's old and new lines.
          const drawn = page.locator("#diff-files");
          await waitOnPage(
            "the drawn lines",
            () => drawn.innerText(),
            (t) => t.includes("drawn-by-diff2html"),
          );
          assertEquals(await page.locator("#diff-files .d2h-file-wrapper").count(), 3);
          assert(await page.locator("#diff-files .d2h-ins", { hasText: "TWO" }).count() > 0);
          assert(await page.locator("#diff-files .d2h-del", { hasText: "two" }).count() > 0);
          // In the page's colours: the files' background is the page's panel.
          const colours = await page.evaluate(`(() => {
            const panel = getComputedStyle(document.documentElement).getPropertyValue("--panel").trim();
            const number = document.querySelector("#diff-files td.d2h-code-linenumber.d2h-cntx");
            return { panel, wrapper: getComputedStyle(number).backgroundColor };
          })()`) as { panel: string; wrapper: string };
          const hex = (rgb: string) =>
            "#" +
            (rgb.match(/\d+/g) ?? []).slice(0, 3).map((n) =>
              Number(n).toString(16).padStart(2, "0")
            ).join("");
          assertEquals(
            hex(colours.wrapper),
            colours.panel,
            `${scheme}: ${JSON.stringify(colours)}`,
          );
          // A file in the list scrolls its lines into view.
          await page.locator('#diff-file-list li[data-path="fresh.txt"] button').click();
          await screenshot(page, `app-diff-${scheme}`);
          assertEquals(errors, []);
          await context.close();
        }

        // A pane without a worktree: one line says so.
        const { page, context, errors } = await openApp(browser, status, { hash: "diff/p2" });
        const problem = page.locator("#diff-problem");
        await problem.waitFor();
        assertMatch(await problem.innerText(), /no worktree/i);
        assertEquals(await page.locator("#open-diff").count(), 0);
        assertEquals(errors, []);
        await context.close();
      });
    });
  },
});

Deno.test({
  name: "app diff: 2,000 changed files list at once and draw as they come into view",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        const files: Record<string, string> = {};
        const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
        for (let i = 0; i < 2000; i++) files[`src/m${i % 40}/f${i}.ts`] = lines.join("\n") + "\n";
        const repo = await makeRepo(join(skiff.root, "repo"), files);
        await addProject(skiff, "demo", repo);
        await skiff.ok(["new", "--project", "demo", "--worktree", "big", "--", ...BASH]);
        const wt = defaultWorktreePath(skiff, "demo", "big");
        for (let i = 0; i < 2000; i++) {
          const changed = [...lines];
          changed[4] = `const changed${i} = ${i};`;
          changed[19] = `export function f${i}() { return ${i}; }`;
          await Deno.writeTextFile(join(wt, `src/m${i % 40}/f${i}.ts`), changed.join("\n") + "\n");
        }
        commitAll(wt, "Change 2,000 files");
        const status = await appStatus(skiff);
        const cli = Date.now();
        await skiff.ok(["diff", "p1", "--json"]);
        const cliMs = Date.now() - cli;
        const { page, context, errors } = await openApp(browser, status);
        const started = Date.now();
        await page.evaluate(() => location.hash = "#diff/p1");
        await page.locator("#diff-file-list").waitFor({ timeout: 60_000 });
        const listed = Date.now() - started;
        await page.locator("#diff-files .d2h-file-wrapper").first().waitFor({ timeout: 60_000 });
        const shown = Date.now() - started;
        assertEquals(await page.locator("#diff-file-list li").count(), 2000);
        const drawnNow = () => page.locator("#diff-files .d2h-file-wrapper").count();
        const first = await drawnNow();
        assert(first > 0 && first <= 40, `${first} files drawn first`);
        assertMatch(await page.locator("#diff-meta").innerText(), /2000 files · \+4000 −4000/);
        // Scrolling to the end draws the files there, and only about a screen of them.
        await page.evaluate(`document.getElementById("diff-files").scrollTop = 1e9`);
        const lastPath = await page.locator("#diff-file-list li").last().getAttribute("data-path");
        const lastDrawn = page.locator(
          `#diff-files .diff-file[data-path="${lastPath}"] .d2h-file-wrapper`,
        );
        await lastDrawn.waitFor();
        assert((await drawnNow()) <= 2 * first + 40, `${await drawnNow()} drawn after the scroll`);
        // A file of the list draws and shows at once, wherever it is.
        const middle = page.locator("#diff-file-list li").nth(1000);
        const path = await middle.getAttribute("data-path");
        const clicked = Date.now();
        await middle.locator("button").click();
        const holder = page.locator(`#diff-files .diff-file[data-path="${path}"]`);
        await holder.locator(".d2h-file-wrapper").waitFor();
        const jumped = Date.now() - clicked;
        assert(await holder.isVisible());
        const nodes = await page.evaluate(`document.getElementsByTagName("*").length`);
        console.log(
          `2,000 files: 'skiff diff --json' took ${cliMs} ms; listed ${listed} ms and first files drawn ${shown} ms after the hash changed, a file 1,000 down ${jumped} ms after its click; ${await drawnNow()} drawn, ${nodes} elements in the page`,
        );
        assertEquals(errors, []);
        await context.close();
      });
    });
  },
});

Deno.test({
  name:
    "app land: the Land button asks with the dry run's words, lands on the base, or refuses and changes nothing",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        const repo = await landingRepo(skiff);
        const wt = await shellInWorktree(skiff, "demo", "fix-a");
        const work = await commitFiles(
          wt,
          { "feature.txt": "landed from the app\n" },
          "Add a feature",
        );
        const clash = await shellInWorktree(skiff, "demo", "clash");
        await commitFiles(clash, { "README.md": "# the worktree's title\n" }, "Retitle here");
        await shellInWorktree(skiff, "demo", "quiet");
        const status = await appStatus(skiff);
        const { page, context, errors } = await openApp(browser, status, { hash: "diff/p1" });
        const line = page.locator("#land-line");
        const say = (pattern: RegExp) =>
          waitOnPage(
            `the land bar to say ${pattern}`,
            () => line.innerText(),
            (t) => pattern.test(t),
          );
        await page.locator("#diff-file-list").waitFor();

        // Cancel changes nothing.
        const before = await snapshot(repo);
        await page.locator("#land-button").click();
        await say(/^Land 1 commit of skiff\/fix-a onto main \(checked out in .*\) \(rebase\)\?$/);
        await screenshot(page, "app-land-question");
        await page.locator("#land-cancel").click();
        await say(/^Not landed: skiff\/fix-a is as it was$/);
        assertEquals(await snapshot(repo), before);

        // Land lands: the base holds the commit, in its checkout too.
        await page.locator("#land-button").click();
        await page.locator("#land-confirm").click();
        const landed = await say(
          /^Landed 1 commit of skiff\/fix-a on main \(rebase\): [0-9a-f]{12}\.\.[0-9a-f]{12}$/,
        );
        assertEquals(git(repo, "rev-parse", "main"), work);
        assertEquals(await Deno.readTextFile(join(repo, "feature.txt")), "landed from the app\n");
        assert(landed.endsWith(work.slice(0, 12)), landed);
        await page.locator("#diff-empty").waitFor();
        await screenshot(page, "app-land-landed");
        // Nothing new: the button says so and asks nothing.
        await page.locator("#land-button").click();
        await say(/^Nothing to land: main has everything on skiff\/fix-a$/);
        assertEquals(await page.locator("#land-confirm").count(), 0);

        // A conflict: its files, and every ref, the index and the files as they were.
        await commitFiles(repo, { "README.md": "# main's title\n" }, "Retitle on main");
        const clashBefore = { repo: await snapshot(repo), wt: await snapshot(clash) };
        await page.evaluate(() => location.hash = "#diff/p2");
        await page.locator("#diff-file-list").waitFor();
        await page.locator("#land-button").click();
        await say(/^Conflict applying [0-9a-f]{7} in README\.md: nothing changed$/);
        assertEquals(await page.locator("#land-bar.problem").count(), 1);
        assertEquals({ repo: await snapshot(repo), wt: await snapshot(clash) }, clashBefore);

        // A worktree with nothing in it.
        await page.evaluate(() => location.hash = "#diff/p3");
        await page.locator("#diff-empty").waitFor();
        await page.locator("#land-button").click();
        await say(/^Nothing to land: main has everything on skiff\/quiet$/);
        assertEquals(errors, []);
        await context.close();
      });
    });
  },
});
