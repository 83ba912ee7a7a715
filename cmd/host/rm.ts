/**
 * `skiff host rm`: remove a host from projects.toml.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { removeHost } from "../../lib/hosts/edit.ts";

/** The `host rm` command. */
export const command = defineCommand({
  name: "rm",
  aliases: ["remove"],
  summary: "Remove a host from the config (its skiffd and panes stay)",
  args: [{ name: "NAME", required: true }],
  exits: [["NOT_FOUND", "No such host"]],
  run: async (ctx) => {
    const { name, config } = await removeHost(ctx.args.NAME);
    ctx.out.result(
      { removed: name, config: config.file },
      () => ctx.out.line(`Removed host ${name}`),
    );
  },
});
