/**
 * `skiff host remote`: the host's end of a link (hidden). A linking Skiff
 * runs it on the host over SSH.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { describeThisHost } from "../../lib/hosts/describe.ts";

/** The `host remote` command. */
export const command = defineCommand({
  name: "remote",
  summary: "Start this machine's skiffd when needed and describe it to a linking Skiff",
  description:
    "Run by another machine's Skiff over SSH when it links to this one: starts skiffd here when none runs, and prints one JSON line with the versions, the socket and the agents installed.",
  hidden: true,
  exits: [["DAEMON", "skiffd could not be started here"]],
  run: async (ctx) => {
    const info = await describeThisHost();
    // One line whatever the mode: the linking side reads it.
    ctx.out.data(info);
  },
});
