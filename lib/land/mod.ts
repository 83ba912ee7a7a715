/**
 * Landing a worktree's work on its base (`skiff land`), all or nothing.
 *
 * {@linkcode landWorktree} is the whole landing, for the CLI, the MCP
 * server and the app: it returns exactly the object `skiff land --json`
 * prints ({@linkcode LandResult}), and every refusal is a `SkiffError`
 * whose details are a `LandRefusalDetails` (see `lib/protocol/land.ts`).
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { LandResult } from "../protocol/land.ts";
import type { LandOptions } from "./options.ts";

export { DEFAULT_CHECK_TIMEOUT_MS, DEFAULT_REMOTE, type LandOptions } from "./options.ts";
export type { LandResult } from "../protocol/land.ts";

/**
 * Lands the work of the worktree that `ref` names (a pane, or with
 * `options.as` a worktree) on its base, or refuses and changes nothing.
 */
export function landWorktree(ref: string, options: LandOptions = {}): Promise<LandResult> {
  void ref;
  void options;
  return Promise.reject(new SkiffError("skiff land is not implemented yet", { exit: "ERROR" }));
}
