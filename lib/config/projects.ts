/**
 * Adding and removing projects in `projects.toml`, with every check a
 * project needs: a valid name, a folder that exists, a command that is not
 * empty, a name not taken. The file keeps the user's comments and layout.
 *
 * @module
 */

import { resolve } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";
import type { Config, Project } from "./config.ts";
import { PROJECT_NAME, splitCommand } from "./tables.ts";
import { editConfig } from "./edit.ts";
import { removeTable, setTableKeys } from "./toml_edit.ts";

/** Options for {@linkcode addProject}. */
export interface AddProjectOptions {
  /** The default command for the project's new panes. */
  command?: string;
  /** The config file; by default `projects.toml` in the config folder. */
  file?: string;
}

/** What a change to the projects returns: the project and the config after the change. */
export interface ProjectChange {
  /** The project added, or the name removed. */
  project: Project;
  /** The config as it is now. */
  config: Config;
}

/**
 * Adds project `name` with root `path` (resolved against the current
 * folder). Exit `USAGE` for a bad name, a missing folder or an empty
 * command; exit `CONFLICT` when the name is taken.
 */
export async function addProject(
  name: string,
  path: string,
  options: AddProjectOptions = {},
): Promise<ProjectChange> {
  const root = resolve(path);
  if (!PROJECT_NAME.test(name)) {
    throw new SkiffError(
      `Bad project name '${name}': use 1 to 64 letters, digits, '_' and '-', starting with a ` +
        "letter or digit",
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
  const command = options.command;
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
  }, options.file);
  return { project: config.projects.find((p) => p.name === name)!, config };
}

/**
 * Removes project `name` from the config; its folder and panes stay. Exit
 * `NOT_FOUND` when there is none; exit `DATA` when it is written in a shape
 * Skiff does not edit.
 */
export async function removeProject(
  name: string,
  options: { file?: string } = {},
): Promise<ProjectChange> {
  let removed: Project | undefined;
  const config = await editConfig((text, current) => {
    removed = current.projects.find((p) => p.name === name);
    if (!removed) {
      throw new SkiffError(`No project '${name}'. See 'skiff project ls'`, { exit: "NOT_FOUND" });
    }
    return removeTable(text, ["projects", name]);
  }, options.file);
  if (config.projects.some((p) => p.name === name)) {
    throw new SkiffError(`Could not remove '${name}': define it as a [projects.${name}] table`, {
      exit: "DATA",
    });
  }
  return { project: removed!, config };
}

/**
 * The project whose root holds `folder` (the root itself or a folder below
 * it), the deepest when roots nest; `undefined` when none does. A root that
 * is a symbolic link matches the folder it leads to as well.
 */
export function projectAt(config: Config, folder: string): Project | undefined {
  const inside = (root: string) =>
    folder === root || folder.startsWith(root.endsWith("/") ? root : `${root}/`);
  let best: Project | undefined;
  let bestLength = -1;
  for (const project of config.projects) {
    let real = project.root;
    try {
      real = Deno.realPathSync(project.root);
    } catch {
      // A root that does not exist holds nothing, but its name may still match.
    }
    for (const root of new Set([project.root, real])) {
      if (inside(root) && root.length > bestLength) {
        best = project;
        bestLength = root.length;
      }
    }
  }
  return best;
}
