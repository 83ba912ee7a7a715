/**
 * Text forms of daemon results, shared by several commands.
 *
 * @module
 */

import type { PaneInfo } from "../protocol/panes.ts";

/** A short age such as `5s`, `3m`, `2h` or `4d`. */
export function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/** The name of the program in front of a pane, or its status. */
export function frontOf(pane: PaneInfo): string {
  if (pane.status === "exited") {
    return pane.exit_signal ? `exited (signal ${pane.exit_signal})` : `exited (${pane.exit_code})`;
  }
  return pane.foreground?.comm ?? pane.command[0]?.split("/").pop() ?? "";
}

/** Shortens a path under the home folder to `~/…`. */
export function tildePath(path: string): string {
  const home = Deno.env.get("HOME");
  if (home && (path === home || path.startsWith(home + "/"))) return "~" + path.slice(home.length);
  return path;
}

/** What `explain` says of a pane's agent conversation and of the last restore. */
export function resumeLines(pane: PaneInfo): string[] {
  const lines: string[] = [];
  const c = pane.conversation;
  if (c) {
    lines.push(
      `conversation ${c.agent} ${c.id} in ${c.cwd} (${
        c.live ? "its agent runs" : "its agent is not running"
      }; named by ${c.source})`,
    );
  }
  if (pane.no_resume) lines.push("resume off for this pane (--no-resume)");
  const r = pane.resume;
  if (r) {
    const said = {
      waiting: `waits for the new shell's prompt to type: ${r.line}`,
      typed: `typed: ${r.line}`,
      skipped: `not resumed: ${r.why}`,
      failed: `not resumed: ${r.why}`,
    }[r.state];
    lines.push(`after the restore, ${r.agent} ${said}`);
  }
  return lines;
}
