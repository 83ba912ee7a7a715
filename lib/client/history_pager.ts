/**
 * The pane's history in a pager, for a terminal attached to it: an attach
 * redraws in full, so the outer terminal's own scrollback holds none of it.
 *
 * @module
 */

import type { DaemonClient } from "./client.ts";
import { tryConnect } from "./connect.ts";

/** As many lines as skiffd keeps: the capture takes what there is. */
const ALL_LINES = 1_000_000;

/**
 * The pager's command: `$PAGER` through the shell, else `less` with a
 * prompt naming `title` and how to go back.
 */
export function pagerCommand(
  title: string,
  env: { get(name: string): string | undefined } = Deno.env,
): { argv: string[]; env: Record<string, string> } {
  const pager = env.get("PAGER")?.trim();
  // As git does: colours, and start at the bottom (the newest lines), unless the person set LESS.
  const extra: Record<string, string> = env.get("LESS") === undefined ? { LESS: "-R +G" } : {};
  if (pager) return { argv: ["sh", "-c", pager], env: extra };
  // less's prompt language gives ? : . % and \ a meaning; a backslash keeps them as they are.
  const literal = title.replace(/[?:.%\\]/g, "\\$&");
  return { argv: ["less", `-Ps${literal}?e (END)., q returns to the pane`], env: extra };
}

/** Options for {@linkcode showHistory}. */
export interface ShowHistoryOptions {
  /** What the pager's prompt calls the history (default: `History of PANE`). */
  title?: string;
  /** The socket; by default the configured one. */
  socket?: string;
  /** Called right before the pager takes the terminal, and right after it gives it back. */
  around?: { before(): void; after(): void };
}

/**
 * Shows `pane`'s history and screen (with colours) in the pager, and waits
 * until the person quits it. Returns a line saying why it could not, or
 * undefined.
 */
export async function showHistory(
  pane: string,
  options: ShowHistoryOptions = {},
): Promise<string | undefined> {
  let client: DaemonClient | undefined;
  let text: string;
  try {
    client = await tryConnect(options.socket);
    if (!client) return "skiffd is not there: no history to show";
    const capture = await client.call("pane.capture", {
      pane,
      ansi: true,
      scrollback: ALL_LINES,
    });
    text = capture.text + "\n";
  } catch (error) {
    return `No history: ${(error as Error).message}`;
  } finally {
    client?.close();
  }
  const { argv, env } = pagerCommand(options.title ?? `History of ${pane}`);
  // Ctrl+C in the pager signals the whole foreground group, this process too.
  const ignore = () => {};
  Deno.addSignalListener("SIGINT", ignore);
  options.around?.before();
  try {
    const child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      env,
      stdin: "piped",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    const writer = child.stdin.getWriter();
    // A pager quit before reading everything closes the pipe: that is fine.
    await writer.write(new TextEncoder().encode(text)).catch(() => {});
    await writer.close().catch(() => {});
    const status = await child.status;
    // The shell's answer for a command it cannot find or run.
    if (argv[0] === "sh" && (status.code === 127 || status.code === 126)) {
      return `The pager '${argv[2]}' could not be run; set PAGER to a pager`;
    }
    return undefined;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return `No pager: '${argv[0]}' is not installed; set PAGER to one`;
    }
    return `The pager failed: ${(error as Error).message}`;
  } finally {
    options.around?.after();
    Deno.removeSignalListener("SIGINT", ignore);
  }
}
