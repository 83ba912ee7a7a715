/**
 * Running the real `skiff dash` in a test terminal, and reading its rows.
 *
 * @module
 */

import { MAIN, type SkiffEnv } from "./skiff.ts";
import { TestTerminal } from "./terminal.ts";

/** Starts `skiff dash` (or `skiff ARGS…`) in a terminal of `cols` × `rows` and waits for its list. */
export async function openDash(
  skiff: SkiffEnv,
  options: { cols?: number; rows?: number; args?: string[]; ready?: RegExp | string } = {},
): Promise<TestTerminal> {
  const term = await TestTerminal.start(
    [Deno.execPath(), "run", "-A", "-q", MAIN, ...(options.args ?? ["dash"])],
    { env: skiff.env, cwd: skiff.env.HOME, cols: options.cols ?? 120, rows: options.rows ?? 30 },
  );
  await term.waitForText(options.ready ?? /watcher: /);
  return term;
}

/** The first row of the screen that holds `text` (or matches it), or undefined. */
export function rowWith(term: TestTerminal, text: string | RegExp): string | undefined {
  return term.text().split("\n").find((line) =>
    typeof text === "string" ? line.includes(text) : text.test(line)
  );
}

/** Types keys and waits until the screen matches `pattern`. */
export async function press(
  term: TestTerminal,
  keys: string,
  pattern: RegExp | string,
): Promise<string> {
  term.type(keys);
  return await term.waitForText(pattern);
}

/** The selected row of the list (it starts with `›`), or undefined. */
export function selectedRow(term: TestTerminal): string | undefined {
  return term.text().split("\n").find((line) => line.startsWith("›"));
}
