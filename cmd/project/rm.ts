/**
 * `skiff project rm`: remove a project from the config.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { removeProject } from "../../lib/config/mod.ts";

/** The `project rm` command. */
export const command = defineCommand({
  name: "rm",
  aliases: ["remove"],
  summary: "Remove a project from the config (its folder and panes stay)",
  args: [{ name: "NAME", required: true, complete: "project" }],
  exits: [["NOT_FOUND", "No such project"]],
  run: async (ctx) => {
    const { project, config } = await removeProject(ctx.args.NAME);
    ctx.out.result(
      { removed: project.name, config: config.file },
      () => ctx.out.line(`Removed project ${project.name}`),
    );
  },
});
