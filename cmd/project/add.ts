/**
 * `skiff project add`: add a project.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { addProject } from "../../lib/config/mod.ts";
import { tildePath } from "../../lib/client/format.ts";
import { projectJson } from "./json.ts";

/** The `project add` command. */
export const command = defineCommand({
  name: "add",
  summary: "Add a project: a name and a root folder",
  args: [
    { name: "NAME", required: true, help: "Letters, digits, '_' and '-'" },
    {
      name: "PATH",
      required: true,
      help: "The project's root folder (must exist)",
      complete: "dir",
    },
  ],
  options: [
    { name: "command", type: "string", value: "CMD", help: "Default command for its new panes" },
  ],
  exits: [["CONFLICT", "A project with that name exists"]],
  run: async (ctx) => {
    const { project, config } = await addProject(ctx.args.NAME, ctx.args.PATH, {
      command: ctx.opts.command,
    });
    ctx.out.result(
      { project: projectJson(project), config: config.file },
      () => ctx.out.line(`Added project ${project.name} at ${tildePath(project.root)}`),
    );
  },
});
