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

/** What a scope may refuse: a pane, the session a new pane would join, or its folder. */
export type ScopedThing = "pane" | "session" | "folder";

/**
 * The error for `what` `ref` outside project `project`: the same as for one
 * that is not there (`NOT_FOUND`). `where` adds why, for a folder its root.
 */
export function outOfScope(
  ref: string,
  project: string,
  what: ScopedThing = "pane",
  where?: string,
): SkiffError {
  const tail = where === undefined ? ". See 'skiff ls'" : ` (${where})`;
  return new SkiffError(`No ${what} '${ref}' in project ${project}${tail}`, {
    exit: "NOT_FOUND",
    details: { [what === "folder" ? "cwd" : what]: ref, project },
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

/** Whether `path` is `root` or a folder below it. */
function within(path: string, root: string): boolean {
  const base = root.endsWith("/") ? root : `${root}/`;
  return path === root || path.startsWith(base);
}

/** `path` with its links followed when it is on this machine and there; else as given. */
function real(path: string, local: boolean): string {
  if (!local) return path;
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/**
 * Checks that a new pane stays in `project`: its folder `cwd` (absolute, as
 * the request has it) under the project's root, and the session it joins,
 * when that session exists, of the project. Asked of the skiffd the pane is
 * then made on (`client`; `local` when it is this machine's, whose folders
 * can be followed through their links).
 */
export async function checkNewPaneScope(
  client: DaemonClient,
  request: { cwd?: string; session?: string },
  project: string,
  local: boolean,
): Promise<void> {
  if (request.cwd === undefined && request.session === undefined) return;
  const listing = await client.call("workspace.list");
  if (request.cwd !== undefined) {
    const root = listing.projects.find((p) => p.name === project)?.root;
    if (root === undefined) {
      throw new SkiffError(`No project '${project}'. See 'skiff project ls'`, {
        exit: "NOT_FOUND",
        details: { project },
      });
    }
    if (!within(real(request.cwd, local), real(root, local))) {
      throw outOfScope(request.cwd, project, "folder", `its root is ${root}`);
    }
  }
  const ref = request.session;
  if (ref !== undefined) {
    // The session a pane joins, found as skiffd finds it: by id, by name, or by one of its panes.
    const session = listing.sessions.find((s) => s.id === ref || s.name === ref) ??
      listing.sessions.find((s) => s.panes.includes(ref));
    if (session !== undefined && session.project !== project) {
      throw outOfScope(ref, project, "session");
    }
  }
}
