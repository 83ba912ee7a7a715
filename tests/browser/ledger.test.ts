/**
 * The ledger in the app: plans with their tasks, every state (interrupted
 * and gone too), panes, refs and result paths; a result file opens as text,
 * and only a row's result file is served.
 */

import { dirname } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { appStatus, BROWSER_TEST, openApp, screenshot, withBrowser } from "../helpers/browser.ts";
import { BASH, withSkiff } from "../helpers/skiff.ts";

Deno.test({
  name:
    "app ledger: plans with tasks, states with interrupted and gone, panes, refs, results as text",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        await skiff.ok(["new", "--name", "rev", "--", ...BASH]);
        await skiff.ok(["new", "--name", "docs", "--", ...BASH]);
        // The table shows result paths from the ledger's folder.
        const folder = `${skiff.env.HOME}/skiff-agent/`;
        const add = async (args: string[]) => {
          const [uid, ...rest] = (await skiff.ok(["ledger", "add", ...args])).trim().split(" ");
          const result = rest.at(-1)!;
          assert(result.startsWith(`${folder}results/`), result);
          return { uid, result, shown: result.slice(folder.length) };
        };
        const plan = await add(["--task", "Release 2.0", "--ref", "JIRA-7"]);
        const review = await add([
          "--pane",
          "rev",
          "--task",
          "Review the parser",
          "--parent",
          plan.uid,
          "--ref",
          "https://example.test/pr/1",
        ]);
        const docs = await add([
          "--pane",
          "docs",
          "--task",
          "Write the docs",
          "--parent",
          plan.uid,
        ]);
        await skiff.ok(["ledger", "update", review.uid, "--state", "sent"]);
        await skiff.ok(["ledger", "update", docs.uid, "--state", "sent"]);
        await skiff.ok(["kill", "docs"]);
        // A restart gives rev a new process: its sent task shows interrupted.
        await skiff.ok(["daemon", "restart"]);
        const later = await add(["--pane", "rev", "--task", "Fix the lexer"]);
        const done = await add(["--pane", "rev", "--task", "Old chore"]);
        await skiff.ok(["ledger", "done", done.uid]);
        await Deno.mkdir(dirname(review.result), { recursive: true });
        await Deno.writeTextFile(review.result, "# Review\n\nAll good: ship it.\n");

        const status = await appStatus(skiff);
        const { page, errors } = await openApp(browser, status, { hash: "#ledger" });
        await page.locator(".ledger-table").waitFor();
        const rows = await page.evaluate<string[][]>(`[...document.querySelectorAll(".ledger-row")]
          .map((tr) => [tr.dataset.uid, ...[...tr.querySelectorAll("td")].slice(1).map((td) => td.innerText)])`);
        assertEquals(rows, [
          [plan.uid, "sent", "plan", "Release 2.0", "JIRA-7", plan.shown],
          [
            review.uid,
            "interrupted",
            "p1 (rev)",
            "Review the parser",
            "https://example.test/pr/1",
            review.shown,
          ],
          [docs.uid, "gone", "p2 (docs)", "Write the docs", "", docs.shown],
          [later.uid, "pending", "p1 (rev)", "Fix the lexer", "", later.shown],
          [done.uid, "done", "p1 (rev)", "Old chore", "", done.shown],
        ]);
        assert(await page.locator(`.ledger-row.nested[data-uid="${review.uid}"]`).count() === 1);

        await page.locator(`.ledger-row[data-uid="${review.uid}"] .result button`).click();
        await page.locator(".viewer .result-text", { hasText: "All good: ship it." }).waitFor();
        await screenshot(page, "ledger");
        await page.locator(`.ledger-row[data-uid="${later.uid}"] .result button`).click();
        await page.locator(".viewer [role=alert]", { hasText: "No result file yet" }).waitFor();

        // The result route serves a row's result file and nothing else.
        const get = (path: string) =>
          page.evaluate<{ status: number; text: string }>(
            `fetch(${
              JSON.stringify(path)
            }).then(async (r) => ({ status: r.status, text: await r.text() }))`,
          );
        assertEquals(await get(`/result/${review.uid}`), {
          status: 200,
          text: "# Review\n\nAll good: ship it.\n",
        });
        assertEquals((await get("/result/ffffffff")).status, 404);
        assertEquals((await get(`/result/${review.uid.slice(0, 4)}`)).status, 404);
        assertEquals((await get("/result/..%2f..%2fetc%2fpasswd")).status, 404);

        // A pane's own tasks show above its terminal, open ones first (lib/overview's summary,
        // as the dashboard shows them), and follow the ledger.
        await page.evaluate(`location.hash = "#pane/p1"`);
        await page.locator("#pane-tasks li[data-uid]").first().waitFor();
        const shown = () =>
          page.evaluate<string[][]>(`[...document.querySelectorAll("#pane-tasks li")]
            .map((li) => [li.dataset.uid ?? "", li.innerText.replace(/\\s+/g, " ").trim()])`);
        assertEquals(await shown(), [
          [review.uid, `${review.uid} interrupted Review the parser`],
          [later.uid, `${later.uid} pending Fix the lexer`],
          [done.uid, `${done.uid} done Old chore`],
        ]);
        const more = await add(["--pane", "rev", "--task", "Then the tests"]);
        await page.locator("#pane-tasks a", { hasText: "1 more in the Ledger" }).waitFor();
        assertEquals((await shown()).map(([uid]) => uid), [review.uid, later.uid, more.uid, ""]);
        assertEquals(errors, []);
      });
    });
  },
});
