/**
 * Reading the workspace a list shows: skiffd answers it whole
 * (`workspace.list`), the projects and the Skiff agent's settings included,
 * as it read them from `projects.toml`. A skiffd older than that method is
 * listed the old way (`older_skiffd.ts`, loaded only then).
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { DaemonClient } from "../client/client.ts";
import type { WorkspaceListing } from "../protocol/workspace.ts";
import { importLater } from "../platform/later.ts";
import type { OlderSkiffdListing } from "./older_skiffd.ts";
import { askListing } from "./listing.ts";

/** Reads the workspace, from skiffd's one answer or, for an older skiffd, piece by piece. */
export class WorkspaceReader {
  #older: OlderSkiffdListing | undefined;

  /** Reads it through `client`; skiffd's answer is `asked`, when it was asked for already. */
  async read(client: DaemonClient, asked?: Promise<WorkspaceListing>): Promise<WorkspaceListing> {
    try {
      return await (asked ?? askListing(client));
    } catch (error) {
      // An older skiffd does not know the method: the connection is fine, and stays in use. It is
      // asked again each time, since `skiff daemon upgrade` may have brought one that knows it.
      if (!(error instanceof SkiffError && error.exit === "PROTOCOL")) throw error;
    }
    if (!this.#older) {
      const { OlderSkiffdListing } = await importLater<typeof import("./older_skiffd.ts")>(
        "lib/overview/older_skiffd.ts",
      );
      this.#older ??= new OlderSkiffdListing();
    }
    return await this.#older.read(client);
  }
}
