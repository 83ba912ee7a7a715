/**
 * `skiff attach`: connect this terminal to a pane.
 *
 * @module
 */

import { defineCommand, Exit, PANE_ARG } from "../lib/cli/mod.ts";
import { attachTerminal } from "../lib/client/attach.ts";

/** The `attach` command. */
export const command = defineCommand({
  name: "attach",
  aliases: ["a"],
  summary: "Connect this terminal to a pane; Ctrl+\\ detaches",
  description:
    "Show a pane in this terminal and type into it. The screen is redrawn in full, follows this terminal's size, and several terminals may attach at once. Press Ctrl+\\ to detach; the pane keeps running. Works over SSH.",
  args: [PANE_ARG],
  exits: ["NOT_FOUND", ["DAEMON", "skiffd could not be reached, or went away"], "NOT_RUNNING"],
  run: async (ctx) => {
    const outcome = await attachTerminal(ctx.args.PANE);
    const label = `${outcome.name} (${outcome.pane})`;
    const messages: Record<string, string> = {
      detached: `[detached from ${label}; 'skiff attach ${outcome.name}' attaches again]`,
      exited: `[${label} exited]`,
      killed: `[${label} was killed]`,
      "daemon stopped": `[skiffd stopped]`,
      lost: `[lost skiffd]`,
      gone: `[${label} is gone]`,
    };
    ctx.out.result(
      outcome,
      () => ctx.out.line(messages[outcome.reason] ?? `[${outcome.reason}]`),
    );
    return outcome.reason === "lost" ? Exit.DAEMON : Exit.OK;
  },
});
