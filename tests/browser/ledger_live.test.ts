/**
 * The ledger view follows the ledger: a change from a terminal (`skiff
 * ledger add`, `update`, `done`) shows in an open page without a reload, a
 * click or polling, starting from no Skiff agent folder at all. A ledger
 * that is read-only, locked, or not a ledger says so in one line, and
 * nothing crashes.
 */

import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  appStatus,
  BROWSER_TEST,
  openApp,
  screenshot,
  waitOnPage,
  withBrowser,
} from "../helpers/browser.ts";
import { agentDir, exists } from "../helpers/ledger.ts";
import { canMakeReadOnly, makeReadOnly } from "../helpers/read_only.ts";
import { BASH, withSkiff } from "../helpers/skiff.ts";

/** Counts, from now on, the page's requests for the ledger: it should read only when told. */
async function countLedgerReads(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const counted = globalThis as unknown as { skiffLedgerReads: number };
    counted.skiffLedgerReads = 0;
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      if (typeof data === "string" && data.includes('"method":"ledger"')) {
        counted.skiffLedgerReads++;
      }
      return send.call(this, data);
    };
  });
  return () =>
    page.evaluate(() => (globalThis as unknown as { skiffLedgerReads: number }).skiffLedgerReads);
}

/** The state shown in the row of `uid`. */
function stateOf(page: Page, uid: string): Promise<string | null> {
  return page.locator(`.ledger-row[data-uid="${uid}"] .task-state`).textContent({
    timeout: 15_000,
  });
}

Deno.test({
  name:
    "app ledger: changes from a terminal show live, from no Skiff agent folder on, without polling",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        await skiff.ok(["new", "--name", "rev", "--", ...BASH]);
        assert(!(await exists(agentDir(skiff))), "no Skiff agent folder yet");
        const status = await appStatus(skiff);
        const { page, errors } = await openApp(browser, status);
        const reads = await countLedgerReads(page);
        await page.evaluate(() => location.hash = "#ledger");
        await page.getByText("No ledger yet: the first 'skiff ledger add' makes it.").waitFor();
        await page.evaluate("window.skiffSamePage = true");

        const add = async (args: string[]) =>
          (await skiff.ok(["ledger", "add", ...args])).trim().split(" ")[0];
        const plan = await add(["--task", "Release 2.0"]);
        await page.locator(`.ledger-row[data-uid="${plan}"]`).waitFor({ timeout: 15_000 });
        const task = await add(["--pane", "rev", "--task", "Review the parser", "--parent", plan]);
        await page.locator(`.ledger-row.nested[data-uid="${task}"]`).waitFor({ timeout: 15_000 });
        assertEquals(await stateOf(page, task), "pending");

        await skiff.ok(["ledger", "update", task, "--state", "sent"]);
        await waitOnPage("the task sent", () => stateOf(page, task), (s) => s === "sent");
        await skiff.ok(["ledger", "done", task]);
        await waitOnPage("the task done", () => stateOf(page, task), (s) => s === "done");
        await skiff.ok(["ledger", "rm", task]);
        await waitOnPage(
          "the task gone from the page",
          () => page.locator(`.ledger-row[data-uid="${task}"]`).count(),
          (n) => n === 0,
        );
        assertEquals(await page.evaluate("window.skiffSamePage"), true, "the page never reloaded");

        // The Skiff agent moves to another folder: the page follows the ledger there.
        await skiff.ok(["skipper", "--move-to", "~/agents/first-mate"]);
        const moved = join(skiff.env.HOME, "agents", "first-mate", "ledger.db");
        await page.locator(".ledger-file code", { hasText: moved }).waitFor({ timeout: 15_000 });
        const later = await add(["--task", "After the move"]);
        await page.locator(`.ledger-row[data-uid="${later}"]`).waitFor({ timeout: 15_000 });

        // Each change made the page read the ledger. While nothing changes, it reads nothing: no
        // polling, and its own reads do not wake the server's watch. A terminal changes the
        // settings twice (the sidebar follows); the first lets the last change settle.
        const rename = async (name: string) => {
          await skiff.ok(["settings", "set", "name", name]);
          await waitOnPage(
            `the sidebar to show ${name}`,
            () => page.locator("#agent-row .row-name").textContent(),
            (t) => t === name,
          );
        };
        await rename("First Mate");
        const before = await reads();
        assert(before >= 5, `the page read the ledger ${before} times`);
        await rename("Second Mate");
        assertEquals(await reads(), before, "the page read the ledger with nothing changed");
        assertEquals(errors, []);
      });
    });
  },
});

Deno.test({
  name:
    "app ledger: a locked, read-only, or foreign ledger says so in one line, and nothing crashes",
  ...BROWSER_TEST,
  ignore: !canMakeReadOnly(),
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        const uid =
          (await skiff.ok(["ledger", "add", "--task", "Release 2.0"])).trim().split(" ")[0];
        const path = join(agentDir(skiff), "ledger.db");
        const { page, errors } = await openApp(browser, await appStatus(skiff), {
          hash: "#ledger",
        });
        const row = page.locator(`.ledger-row[data-uid="${uid}"]`);
        await row.waitFor();
        const problem = page.locator("#ledger-problem");
        const refresh = page.getByRole("button", { name: "Refresh" });
        assertEquals(await problem.count(), 0);

        // Another process holds the write lock: the rows show, with one line; when it lets go,
        // the line goes on its own.
        const holder = new DatabaseSync(path);
        try {
          holder.exec("BEGIN IMMEDIATE");
          await refresh.click();
          await problem.filter({ hasText: `Ledger is locked by another process: ${path}` })
            .waitFor();
          assertEquals(await row.count(), 1);
          await screenshot(page, "ledger-locked");
        } finally {
          holder.exec("ROLLBACK");
          holder.close();
        }
        await problem.waitFor({ state: "detached", timeout: 15_000 });

        const undo = makeReadOnly(path);
        try {
          await refresh.click();
          await problem.filter({ hasText: "Ledger is read-only (" }).filter({
            hasText: `): ${path}`,
          })
            .waitFor();
          assertEquals(await row.count(), 1);
          assertEquals(await problem.count(), 1);
        } finally {
          undo();
        }
        await refresh.click();
        await problem.waitFor({ state: "detached" });

        // A file that is not a ledger takes its place: its line, live, and no rows.
        for (const suffix of ["", "-wal", "-shm"]) await Deno.remove(path + suffix).catch(() => {});
        await Deno.writeTextFile(path, "my notes, not a database\n".repeat(20));
        await problem.filter({ hasText: `${path} is not a Skiff ledger: it is not a SQLite file` })
          .waitFor({ timeout: 15_000 });
        assertEquals(await row.count(), 0);
        assertEquals((await problem.innerText()).includes("\n"), false, "one line");

        // The rest of the page still works.
        await page.getByRole("link", { name: "Settings" }).click();
        await page.locator("#set-name").waitFor();
        assertEquals(errors, []);
      });
    });
  },
});
