/**
 * `skiff project rm`: remove a project from the config.
 *
 * @module
 */

import { arg, type CommandSpec } from "../../lib/cli/mod.ts";
import { removeProject } from "../../lib/config/mod.ts";

/** The `project rm` command. */
export const command: CommandSpec = {
  name: "rm",
  aliases: ["remove"],
  summary: "Remove a project from the config (its folder and panes stay)",
  args: [{ name: "NAME", required: true }],
  exitCodes: [[3, "No such project"]],
  run: async (ctx) => {
    const { project, config } = await removeProject(arg(ctx, "NAME"));
    ctx.out.result(
      { removed: project.name, config: config.file },
      () => ctx.out.line(`Removed project ${project.name}`),
    );
  },
};
