/**
 * The part of a list of the workspace that comes from `projects.toml`: the
 * projects and the Skiff agent's settings, in the protocol's shape.
 *
 * @module
 */

import type { WorkspaceListing } from "../protocol/workspace.ts";
import type { Config } from "./config.ts";

/** The projects and the Skiff agent's settings of `config`, as a list shows them. */
export function listedSettings(config: Config): Pick<WorkspaceListing, "projects" | "skipper"> {
  return {
    projects: config.projects.map((p) => ({ name: p.name, root: p.root })),
    skipper: {
      enabled: config.skiffAgent.enabled,
      name: config.skiffAgent.name,
      agent: config.skiffAgent.agent,
    },
  };
}
