/**
 * The app in a real browser for tests: Debian's headless Chromium driven by
 * playwright-core, one browser per test file, a fresh profile each launch,
 * and the app's address from `skiff app --json`.
 *
 * @module
 */

import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import type { AppStatus } from "../../lib/protocol/app.ts";
import { ROOT, type SkiffEnv, waitFor, type WaitOptions } from "./skiff.ts";

/** The Chromium the tests drive (`apt-get install chromium`; `.ci/run` installs it). */
export const CHROMIUM = Deno.env.get("SKIFF_CHROMIUM") ?? "/usr/bin/chromium";

/** Where the tests write their screenshots (docs/development.md names it). */
export const SCREENSHOTS = Deno.env.get("SKIFF_SCREENSHOTS") ?? join(ROOT, "dist", "screenshots");

/** Options every browser test passes to `Deno.test`: the browser's pipes outlive single steps. */
export const BROWSER_TEST = { sanitizeOps: false, sanitizeResources: false } as const;

/** Runs `body` with a headless Chromium and always closes it. */
export async function withBrowser(body: (browser: Browser) => Promise<void>): Promise<void> {
  // Playwright makes a fresh, temporary user-data-dir for each launch.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    await body(browser);
  } finally {
    await browser.close();
  }
}

/** The app's address, from `skiff app --no-open --json` (which starts skiffd when needed). */
export async function appStatus(skiff: SkiffEnv): Promise<AppStatus> {
  return await skiff.json<AppStatus>(["app", "--no-open"]);
}

/** A page of the app, and the errors it threw. */
export interface AppPage {
  /** The page. */
  page: Page;
  /** Its context (one per page, so cookies and permissions stay apart). */
  context: BrowserContext;
  /** Errors the page's scripts threw. */
  errors: string[];
}

/** Options for {@linkcode openApp}. */
export interface OpenAppOptions {
  /** `light` or `dark`. */
  colorScheme?: "light" | "dark";
  /** Emulate `prefers-reduced-motion: reduce`. */
  reducedMotion?: boolean;
  /** The part after `#`: `settings`, `ledger`, `pane/p1`. */
  hash?: string;
  /** Window size. */
  viewport?: { width: number; height: number };
}

/** Opens the app's printed address in a new context and waits until the sidebar is live. */
export async function openApp(
  browser: Browser,
  status: AppStatus,
  options: OpenAppOptions = {},
): Promise<AppPage> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 760 },
    colorScheme: options.colorScheme ?? "light",
    reducedMotion: options.reducedMotion ? "reduce" : "no-preference",
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: status.origin,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(status.url);
  if (options.hash) await page.evaluate((hash) => location.hash = hash, options.hash);
  await page.locator("#agent-row").waitFor({ timeout: 15_000 });
  await page.locator("body[data-link=live]").waitFor({ timeout: 15_000 });
  return { page, context, errors };
}

/** Waits until `read()` on the page gives a value that passes `check`; returns it. */
export async function waitOnPage<T>(
  what: string,
  read: () => Promise<T>,
  check: (value: T) => boolean,
  options: WaitOptions = {},
): Promise<T> {
  let last: T | undefined;
  try {
    const found = await waitFor(what, async () => {
      last = await read();
      return check(last) ? { value: last } : undefined;
    }, { timeout: 15_000, ...options });
    return found.value;
  } catch (error) {
    throw new Error(`${(error as Error).message}\nlast: ${JSON.stringify(last)}`);
  }
}

/** The text of the page terminal's buffer (history and screen), trailing blanks dropped. */
export async function terminalText(page: Page): Promise<string> {
  return await page.evaluate(() => {
    const view = (globalThis as unknown as {
      skiffTerminal?: {
        term: {
          buffer: {
            active: {
              length: number;
              getLine(y: number): { translateToString(trim: boolean): string } | undefined;
            };
          };
        };
      };
    }).skiffTerminal;
    if (!view) return "";
    const buffer = view.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y++) {
      lines.push(buffer.getLine(y)?.translateToString(true) ?? "");
    }
    return lines.join("\n").replace(/\s+$/, "");
  });
}

/** Waits until the page's terminal shows `pattern`. */
export async function waitForTerminal(page: Page, pattern: RegExp): Promise<string> {
  return await waitOnPage(
    `the page's terminal to show ${pattern}`,
    () => terminalText(page),
    (t) => pattern.test(t),
  );
}

/** Saves a screenshot of the page as `SCREENSHOTS/name.png`. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}
