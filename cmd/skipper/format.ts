/**
 * The text forms of `skiff skipper status` and `--move-to`.
 *
 * @module
 */

import type { MoveOutcome, SkiffAgentStatus } from "../../lib/skipper/mod.ts";

function watcherLine(health: SkiffAgentStatus["watcher"]): string {
  if (!health) return "- (skiffd is not running)";
  if (!health.running) return "not running";
  const state = health.ok ? "ok" : "its last line failed";
  const last = health.last ? `; last: ${health.last}` : "";
  return `running (pid ${health.pid}), ${state}, following ${health.watching.length} pane(s)${last}`;
}

/** Lines for `skiff skipper status`. */
export function statusLines(status: SkiffAgentStatus): string[] {
  const rows: [string, string][] = [
    ["enabled", String(status.enabled)],
    ["session", status.session ? `${status.session.name} (${status.session.id})` : "not running"],
    ["pane", status.pane ? `${status.pane.name} (${status.pane.id})` : "-"],
    ["agent", status.agent],
    ["state", status.state ?? "-"],
    ["folder", status.folder ?? "- (HOME is not set)"],
    ["watcher", watcherLine(status.watcher)],
  ];
  return rows.map(([key, value]) => `${key.padEnd(8)} ${value}`);
}

/** Lines for `--move-to`: what was done, or with `--dry-run` what would be. */
export function moveLines(outcome: MoveOutcome): string[] {
  if (outcome.action === "none") return [`The Skiff agent's folder is ${outcome.to} already.`];
  const would = outcome.dryRun;
  const lines: string[] = [];
  if (outcome.ended.length > 0) {
    lines.push(
      `${would ? "Would end" : "Ended"} the Skiff agent's session (${outcome.ended.join(", ")}).`,
    );
  }
  if (outcome.action === "copy") {
    const c = outcome.copied;
    const held = c
      ? ` (${c.files} files${c.ledgerRows === null ? "" : `, a ledger of ${c.ledgerRows} rows`})`
      : "";
    lines.push(
      would
        ? `Would copy ${outcome.from} to ${outcome.to}, check the copy, and switch to it.`
        : `Copied ${outcome.from} to ${outcome.to}${held} and checked the copy.`,
    );
  } else if (outcome.action === "new") {
    lines.push(
      `${would ? "Would set up" : "Set up"} ${outcome.to} with a new ledger (nothing to copy).`,
    );
  } else {
    lines.push(
      `${
        would ? "Would switch" : "Switched"
      } to the Skiff folder ${outcome.to} as it is (no copy, no merge).`,
    );
  }
  lines.push(
    `${would ? "Would set" : "Set"} [skiff_agent] folder = "${outcome.setting}" in projects.toml.`,
  );
  if (outcome.notesOld) {
    lines.push(
      `${would ? "Would leave" : "Left"} MOVED.md in ${outcome.from}; nothing there is deleted.`,
    );
  }
  if (would) lines.push("Nothing was changed (--dry-run).");
  return lines;
}
