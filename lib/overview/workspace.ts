/**
 * Reading the workspace a list shows: skiffd's panes, sessions and watcher
 * health in one go, with the projects and the Skiff agent's settings from
 * `projects.toml`. While `projects.toml` is broken, the last good settings
 * (or the defaults) stand in and `config_error` says why.
 *
 * @module
 */

import { type Config, loadConfig, parseConfig } from "../config/config.ts";
import { projectsFile } from "../config/paths.ts";
import { SkiffError } from "../errors.ts";
import type { DaemonClient } from "../client/client.ts";
import type { WorkspaceView } from "./view.ts";
import { askListing, type Listing } from "./listing.ts";

/** Reads the workspace; keeps the last good config between reads. */
export class WorkspaceReader {
  #lastGood: Config | undefined;

  /** Reads it through `client`; skiffd's part is `asked`, when it was asked for already. */
  async read(client: DaemonClient, asked?: Promise<Listing>): Promise<WorkspaceView> {
    const listing = asked ?? askListing(client);
    // The config is read while skiffd answers.
    let config;
    try {
      config = this.#config();
    } catch (error) {
      listing.catch(() => {});
      throw error;
    }
    const { panes, sessions, watcher } = await listing;
    return { panes, sessions, watcher, ...config };
  }

  #config(): Pick<WorkspaceView, "projects" | "skipper" | "config_error"> {
    let config: Config;
    let configError: string | null = null;
    try {
      config = this.#lastGood = loadConfig();
    } catch (error) {
      if (!(error instanceof SkiffError)) throw error;
      configError = error.message;
      config = this.#lastGood ?? parseConfig("", projectsFile(), false);
    }
    return {
      projects: config.projects.map((p) => ({ name: p.name, root: p.root })),
      skipper: {
        enabled: config.skiffAgent.enabled,
        name: config.skiffAgent.name,
        agent: config.skiffAgent.agent,
      },
      config_error: configError,
    };
  }
}
