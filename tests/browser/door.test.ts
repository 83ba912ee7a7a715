/**
 * The app's door in Chromium: without the token the browser gets 401 and no
 * page; a page of another origin on the same host, in a browser that holds
 * the app's cookie, cannot open the app's WebSocket.
 */

import { assertEquals } from "../helpers/assert.ts";
import { appStatus, BROWSER_TEST, openApp, withBrowser } from "../helpers/browser.ts";
import { withSkiff } from "../helpers/skiff.ts";

Deno.test({
  name: "app door: no token, no page; a foreign page cannot open the app's WebSocket",
  ...BROWSER_TEST,
  fn: async () => {
    await withBrowser(async (browser) => {
      await withSkiff(async (skiff) => {
        const status = await appStatus(skiff);
        const stranger = await browser.newPage();
        const bare = await stranger.goto(status.origin);
        assertEquals(bare?.status(), 401);
        assertEquals(await stranger.locator("#agent-row").count(), 0);
        await stranger.close();

        // The person's browser has the app's cookie.
        const { page, context } = await openApp(browser, status);
        const foreign = Deno.serve(
          { hostname: "127.0.0.1", port: 0, onListen: () => {} },
          () =>
            new Response("<!doctype html><title>elsewhere</title>", {
              headers: { "content-type": "text/html" },
            }),
        );
        try {
          const other = await context.newPage();
          await other.goto(`http://127.0.0.1:${foreign.addr.port}/`);
          const tried = await other.evaluate<string>(`new Promise((resolve) => {
            const ws = new WebSocket("ws://127.0.0.1:${status.port}/ws");
            ws.onopen = () => resolve("open");
            ws.onerror = () => resolve("refused");
          })`);
          assertEquals(tried, "refused");
          // The app's own page still talks to it.
          assertEquals(await page.locator("body").getAttribute("data-link"), "live");
        } finally {
          await foreign.shutdown();
        }
      });
    });
  },
});
