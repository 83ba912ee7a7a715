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

/** Reads the workspace; keeps the last good config between reads. */
export class WorkspaceReader {
  #lastGood: Config | undefined;

  /** Reads it through `client`. */
  async read(client: DaemonClient): Promise<WorkspaceView> {
    const [{ panes }, { sessions }, watcher] = await Promise.all([
      client.call("pane.list"),
      client.call("session.list"),
      client.call("watch.status"),
    ]);
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
      panes,
      sessions,
      projects: config.projects.map((p) => ({ name: p.name, root: p.root })),
      watcher,
      skipper: {
        enabled: config.skiffAgent.enabled,
        name: config.skiffAgent.name,
        agent: config.skiffAgent.agent,
      },
      config_error: configError,
    };
  }
}
