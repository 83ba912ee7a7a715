/**
 * `skiff project add`: add a project.
 *
 * @module
 */

import { arg, type CommandSpec, optString } from "../../lib/cli/mod.ts";
import { addProject } from "../../lib/config/mod.ts";
import { tildePath } from "../../lib/client/format.ts";
import { projectJson } from "./json.ts";

/** The `project add` command. */
export const command: CommandSpec = {
  name: "add",
  summary: "Add a project: a name and a root folder",
  args: [
    { name: "NAME", required: true, help: "Letters, digits, '_' and '-'" },
    { name: "PATH", required: true, help: "The project's root folder (must exist)" },
  ],
  options: [
    { name: "command", type: "string", value: "CMD", help: "Default command for its new panes" },
  ],
  exitCodes: [[5, "A project with that name exists"]],
  run: async (ctx) => {
    const { project, config } = await addProject(arg(ctx, "NAME"), arg(ctx, "PATH"), {
      command: optString(ctx, "command"),
    });
    ctx.out.result(
      { project: projectJson(project), config: config.file },
      () => ctx.out.line(`Added project ${project.name} at ${tildePath(project.root)}`),
    );
  },
};
