/**
 * The JSON form of a project, for `skiff project … --json`.
 *
 * @module
 */

import type { Project } from "../../lib/config/mod.ts";

/** A project as `--json` prints it. */
export function projectJson(p: Project): { name: string; root: string; command: string[] | null } {
  return { name: p.name, root: p.root, command: p.command ?? null };
}
