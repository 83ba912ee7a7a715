/**
 * `skiff project`: add, list and remove projects in `projects.toml`. Each
 * subcommand lives in `cmd/project/`.
 *
 * @module
 */

import type { CommandSpec } from "../lib/cli/mod.ts";
import { command as add } from "./project/add.ts";
import { command as ls } from "./project/ls.ts";
import { command as rm } from "./project/rm.ts";

/** The `project` command group. */
export const command: CommandSpec = {
  name: "project",
  summary: "Add, list or remove projects",
  description:
    "Projects live in projects.toml in the config folder, as [projects.NAME] tables with a root and an optional command. Skiff keeps your comments and layout when it edits the file.",
  subcommands: [add, ls, rm],
};
