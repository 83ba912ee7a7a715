/**
 * `skiff attach`: connect this terminal to a pane.
 *
 * @module
 */

import { defineCommand, Exit } from "../lib/cli/mod.ts";
import { attachPane } from "../lib/hosts/attach.ts";

/** The `attach` command. */
export const command = defineCommand({
  name: "attach",
  aliases: ["a"],
  summary: "Connect this terminal to a pane; Ctrl+\\ detaches",
  description:
    "Show a pane in this terminal and type into it. The screen is redrawn in full and several terminals may attach at once; the pane takes the size of the terminal in use (the one that attached, typed or changed size last). HOST:PANE attaches to a pane on another host, through the link the local skiffd holds (see 'skiff host'). Press Ctrl+\\ to detach (the pane keeps running) and Ctrl+] to read the pane's history in $PAGER (default less); [attach] detach_key and history_key in projects.toml change them. With no PANE, attaches to the running pane a person attached to or typed into last, else the newest running pane, and says which. Follows a reload or a restart of skiffd. Works over SSH.",
  args: [{
    name: "PANE",
    help: "Pane id, name, project/name, or HOST:PANE (default: the one used last)",
    complete: "pane",
  }],
  exits: [
    ["NOT_FOUND", "no such pane, or no running pane at all when none is named"],
    ["DAEMON", "skiffd could not be reached, or went away and did not come back"],
    "NOT_RUNNING",
    ["UNREACHABLE", "HOST cannot be reached, or the link to it was lost (the pane keeps running)"],
    ["PROTOCOL", "HOST's Skiff cannot be used from this one"],
  ],
  examples: ["skiff attach web", "skiff attach", "skiff attach gpu1:reviewer"],
  run: async (ctx) => {
    const outcome = await attachPane(ctx.args.PANE);
    ctx.out.result(outcome, () => ctx.out.line(outcome.line));
    if (outcome.reason !== "lost") return Exit.OK;
    return outcome.host === null ? Exit.DAEMON : Exit.UNREACHABLE;
  },
});
