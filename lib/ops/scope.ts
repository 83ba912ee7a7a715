/**
 * A project scope: a caller limited to one project's panes (`skiff mcp
 * --project P`) sees no other pane, as if it did not exist.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { DaemonClient } from "../client/client.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import type { SkiffdAccess } from "../hosts/resolve.ts";

/** The options every pane operation takes. */
export interface PaneOpOptions {
  /** Where connections come from (default: one for this call). */
  access?: SkiffdAccess;
  /** Only a pane of this project may be named; another is `NOT_FOUND`. */
  project?: string;
}

/** The error for pane `ref` outside project `project`: the same as for a pane that is not there. */
export function outOfScope(ref: string, project: string): SkiffError {
  return new SkiffError(`No pane '${ref}' in project ${project}. See 'skiff ls'`, {
    exit: "NOT_FOUND",
    details: { pane: ref, project },
  });
}

/**
 * Checks that pane `pane` (a ref on `client`'s skiffd) is in `project`,
 * when a project is given, and returns it then. Asked on the connection the
 * operation then uses.
 */
export async function checkScope(
  client: DaemonClient,
  pane: string,
  project: string | undefined,
): Promise<PaneInfo | undefined> {
  if (project === undefined) return undefined;
  const info = await client.call("pane.get", { pane });
  if (info.project !== project) throw outOfScope(pane, project);
  return info;
}
