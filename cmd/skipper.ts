/**
 * `skiff skipper`: attach to the Skiff agent, starting it (and skiffd) when
 * needed; `--move-to` gives it a new folder; `skiff skipper status` (in
 * `cmd/skipper/status.ts`) reports on it.
 *
 * @module
 */

import { defineCommand, Exit, SkiffError } from "../lib/cli/mod.ts";
import { attachTerminal } from "../lib/client/attach.ts";
import { loadConfig } from "../lib/config/mod.ts";
import {
  moveLines,
  moveSkiffAgent,
  offError,
  openSkiffAgent,
  statusAfterOpen,
} from "../lib/skipper/mod.ts";
import { command as status } from "./skipper/status.ts";

/** The `skipper` command. */
export const command = defineCommand({
  name: "skipper",
  summary: "Attach to the Skiff agent, starting it when needed; Ctrl+\\ detaches",
  description:
    "Attach this terminal to the Skiff agent's session. When the session does not run, start it first (and skiffd, when it does not run); when it is a bare shell, start the agent in it (with its continue line when continue is on). Ctrl+\\ detaches; the agent keeps running. With --json, open it without attaching and print its session, pane, agent, state and folder. --move-to PATH gives the Skiff agent a new folder: a new or empty one gets a copy of the current folder, a Skiff folder is used as it is, anything else is refused.",
  subcommands: [status],
  options: [
    {
      name: "move-to",
      type: "string",
      value: "PATH",
      help: "Move the Skiff agent to folder PATH (ends its session first)",
      complete: "dir",
    },
    {
      name: "dry-run",
      type: "boolean",
      help: "With --move-to: say what would happen and change nothing",
      requires: ["move-to"],
    },
  ],
  examples: [
    "skiff skipper",
    "skiff skipper --json",
    "skiff skipper --move-to ~/agents/skipper --dry-run",
  ],
  exits: [
    ["USAGE", "Bad input, no terminal, or the folder cannot be used; nothing was changed"],
    [
      "NOT_FOUND",
      "The configured agent is not known, or no session runs and its program is not on the PATH",
    ],
    "DAEMON",
    ["CONFLICT", "The Skiff agent is off: turn it on with 'skiff settings set enabled true'"],
    ["DATA", "The folder could not be set up or copied"],
  ],
  run: async (ctx) => {
    const target = ctx.opts["move-to"];
    if (target !== undefined) {
      const outcome = await moveSkiffAgent(target, { dryRun: ctx.opts["dry-run"] });
      ctx.out.result(outcome, () => ctx.out.line(moveLines(outcome).join("\n")));
      return;
    }
    const config = loadConfig();
    if (!config.skiffAgent.enabled) throw offError();
    if (ctx.json) {
      const outcome = await openSkiffAgent({ config });
      ctx.out.data({ ...statusAfterOpen(config, outcome), how: outcome.how, start: outcome.start });
      return;
    }
    if (!Deno.stdin.isTerminal() || !Deno.stdout.isTerminal()) {
      throw new SkiffError(
        "skiff skipper needs a terminal on stdin and stdout; 'skiff skipper --json' opens it without one",
        { exit: "USAGE" },
      );
    }
    const opened = await openSkiffAgent({ config });
    const outcome = await attachTerminal(opened.pane.id, { again: "skiff skipper" });
    ctx.out.line(outcome.line);
    return outcome.reason === "lost" ? Exit.DAEMON : Exit.OK;
  },
});
