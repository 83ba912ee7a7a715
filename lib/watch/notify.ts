/**
 * Desktop notifications for what needs the person, not the agent: a pane
 * that waits for an approval or rang the bell. `notify-send` on Linux,
 * `osascript` on macOS; when the tool is missing the watcher's log line is
 * the only record.
 *
 * @module
 */

import { which } from "../platform/shell.ts";

/** How a notification went. */
export type NotifyOutcome = "sent" | "missing" | "failed";

/** Sends a notification with `title` and `body`. Never throws. */
export async function notifyDesktop(title: string, body: string): Promise<NotifyOutcome> {
  let program: string;
  let args: string[];
  if (Deno.build.os === "darwin") {
    program = "osascript";
    const quote = (text: string) => JSON.stringify(text);
    args = ["-e", `display notification ${quote(body)} with title ${quote(title)}`];
  } else {
    program = "notify-send";
    args = ["--app-name=Skiff", title, body];
  }
  if (!which(program)) return "missing";
  try {
    const output = await new Deno.Command(program, {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
    return output.success ? "sent" : "failed";
  } catch {
    return "failed";
  }
}

/** Options for {@linkcode notifyPerson}. */
export interface NotifyPersonOptions {
  /** Writes the line that records the notification. */
  log: (line: string) => void;
  /** Send desktop notifications (default true). */
  notify?: boolean;
  /** Sends a notification; by default {@linkcode notifyDesktop}. */
  notifier?: (title: string, body: string) => Promise<NotifyOutcome>;
}

/**
 * Tells the person `what` (such as `pane rev waits for an approval`) with a
 * desktop notification, and logs one line that says how it went: the line
 * is the record when notifications are off or the tool is missing.
 */
export async function notifyPerson(what: string, options: NotifyPersonOptions): Promise<void> {
  if (options.notify === false) {
    options.log(`pane ${what} (notifications are off)`);
    return;
  }
  const outcome = await (options.notifier ?? notifyDesktop)("Skiff", what);
  const how = outcome === "sent"
    ? "notified"
    : outcome === "missing"
    ? "no notification tool; this line is the record"
    : "the notification failed";
  options.log(`pane ${what}: ${how}`);
}
