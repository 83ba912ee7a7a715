/**
 * `skiff project ls`: list projects.
 *
 * @module
 */

import { defineCommand, table } from "../../lib/cli/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { tildePath } from "../../lib/client/format.ts";
import { projectJson } from "./json.ts";

/** The `project ls` command. */
export const command = defineCommand({
  name: "ls",
  aliases: ["list"],
  summary: "List projects",
  run: (ctx) => {
    const config = loadConfig();
    ctx.out.result({ projects: config.projects.map(projectJson), config: config.file }, () => {
      if (config.projects.length === 0) {
        ctx.out.line("No projects. Add one with 'skiff project add NAME PATH'.");
        return;
      }
      ctx.out.line(table(
        ["NAME", "ROOT", "COMMAND"],
        config.projects.map((p) => [p.name, tildePath(p.root), p.command?.join(" ") ?? "-"]),
      ));
    });
  },
});
