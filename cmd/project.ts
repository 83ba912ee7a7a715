/**
 * `skiff project`: add, list and remove projects in `projects.toml`.
 *
 * @module
 */

import { resolve } from "node:path";
import { arg, type CommandSpec, optString, SkiffError, table } from "../lib/cli/mod.ts";
import {
  editConfig,
  loadConfig,
  PROJECT_NAME,
  removeTable,
  setTableKeys,
  splitCommand,
} from "../lib/config/mod.ts";
import { tildePath } from "../lib/client/format.ts";

function projectJson(p: { name: string; root: string; command?: string[] }) {
  return { name: p.name, root: p.root, command: p.command ?? null };
}

const add: CommandSpec = {
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
    const name = arg(ctx, "NAME");
    const root = resolve(arg(ctx, "PATH"));
    const command = optString(ctx, "command");
    if (!PROJECT_NAME.test(name)) {
      throw new SkiffError(
        `Bad project name '${name}': use letters, digits, '_' and '-'`,
        { exit: "USAGE" },
      );
    }
    let isDir = false;
    try {
      isDir = Deno.statSync(root).isDirectory;
    } catch {
      // Reported below.
    }
    if (!isDir) throw new SkiffError(`Folder '${root}' does not exist`, { exit: "USAGE" });
    if (command !== undefined && splitCommand(command).length === 0) {
      throw new SkiffError("Option '--command' needs a command", { exit: "USAGE" });
    }
    const config = await editConfig((text, current) => {
      if (current.projects.some((p) => p.name === name)) {
        throw new SkiffError(`A project named '${name}' exists already`, { exit: "CONFLICT" });
      }
      const entries: Record<string, string> = { root };
      if (command !== undefined) entries.command = command;
      return setTableKeys(text, ["projects", name], entries);
    });
    const project = config.projects.find((p) => p.name === name)!;
    ctx.out.result(
      { project: projectJson(project), config: config.file },
      () => ctx.out.line(`Added project ${name} at ${tildePath(root)}`),
    );
  },
};

const ls: CommandSpec = {
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
    return Promise.resolve();
  },
};

const rm: CommandSpec = {
  name: "rm",
  aliases: ["remove"],
  summary: "Remove a project from the config (its folder and panes stay)",
  args: [{ name: "NAME", required: true }],
  exitCodes: [[3, "No such project"]],
  run: async (ctx) => {
    const name = arg(ctx, "NAME");
    const config = await editConfig((text, current) => {
      if (!current.projects.some((p) => p.name === name)) {
        throw new SkiffError(`No project '${name}'. See 'skiff project ls'`, {
          exit: "NOT_FOUND",
        });
      }
      return removeTable(text, ["projects", name]);
    });
    if (config.projects.some((p) => p.name === name)) {
      throw new SkiffError(
        `Could not remove '${name}': define it as a [projects.${name}] table`,
        { exit: "DATA" },
      );
    }
    ctx.out.result(
      { removed: name, config: config.file },
      () => ctx.out.line(`Removed project ${name}`),
    );
  },
};

/** The `project` command group. */
export const command: CommandSpec = {
  name: "project",
  summary: "Add, list or remove projects",
  description:
    "Projects live in projects.toml in the config folder, as [projects.NAME] tables with a root and an optional command. Skiff keeps your comments and layout when it edits the file.",
  subcommands: [add, ls, rm],
};
