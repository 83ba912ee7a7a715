/**
 * `skiff dash`: the terminal dashboard.
 *
 * @module
 */

import { defineCommand } from "../lib/cli/spec.ts";
import { SkiffError } from "../lib/errors.ts";
// By file, not through lib/dash/mod.ts (which holds the drawing too): the dashboard connects and
// asks for its first listing before the rest of its code loads.
import { runDashboard } from "../lib/dash/run.ts";

/** The `dash` command. */
export const command = defineCommand({
  name: "dash",
  summary: "The dashboard: every pane live, the ledger, and keys to move between them",
  description:
    "Open a full-screen dashboard in this terminal: the Skiff agent's row with the watcher's health, then each project with its sessions and panes (agent, state, unread, how long ago the state changed), a live preview of the selected pane with its tasks, and the ledger. Enter opens the selected pane as 'skiff attach' does; Ctrl+\\ comes back. ? shows the keys. 'skiff' with no arguments in a terminal opens it too. It follows skiffd through reloads and restarts, and ends (exit 4) when skiffd is stopped for good.",
  examples: ["skiff dash", "skiff"],
  exits: [
    ["USAGE", "stdin or stdout is not a terminal, or --json was given"],
    ["DAEMON", "skiffd could not be reached, or was stopped for good"],
  ],
  run: async (ctx) => {
    if (ctx.json) {
      throw new SkiffError(
        "skiff dash is a full-screen view and prints no JSON; 'skiff ls --json' lists the panes",
        { exit: "USAGE" },
      );
    }
    const outcome = await runDashboard();
    if (outcome.line) ctx.out.line(outcome.line);
    return outcome.code;
  },
});
