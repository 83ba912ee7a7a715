/**
 * Listing the workspace of a skiffd older than `workspace.list` (after an
 * upgrade of `skiff`, before `skiff daemon upgrade`): its panes, sessions and
 * watcher's health asked one by one, and the projects and the Skiff agent's
 * settings read here from `projects.toml`. While that file is broken, the
 * last good settings (or the defaults) stand in and `config_error` says why.
 *
 * @module
 */

import { type Config, loadConfig, parseConfig } from "../config/config.ts";
import { listedSettings } from "../config/listed.ts";
import { projectsFile } from "../config/paths.ts";
import { SkiffError } from "../errors.ts";
import type { DaemonClient } from "../client/client.ts";
import type { WorkspaceListing } from "../protocol/workspace.ts";

/** Lists an older skiffd's workspace; keeps the last good config between readings. */
export class OlderSkiffdListing {
  #lastGood: Config | undefined;

  /** Lists it through `client`. */
  async read(client: DaemonClient): Promise<WorkspaceListing> {
    const asked = Promise.all([
      client.call("pane.list"),
      client.call("session.list"),
      client.call("watch.status"),
    ]);
    let config;
    try {
      config = this.#config();
    } catch (error) {
      asked.catch(() => {});
      throw error;
    }
    const [{ panes }, { sessions }, watcher] = await asked;
    return { panes, sessions, watcher, ...config };
  }

  #config(): Pick<WorkspaceListing, "projects" | "skipper" | "config_error"> {
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
      ...listedSettings(config),
      config_error: configError,
    };
  }
}
