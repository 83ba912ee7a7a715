/**
 * The words for a move of the Skiff agent's folder: what was done, or with
 * a dry run what would be. `skiff skipper --move-to` prints them, and the
 * app shows them before it asks to go ahead.
 *
 * @module
 */

import type { MoveOutcome } from "./move.ts";

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
