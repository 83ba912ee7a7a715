/**
 * The entry of the npm package: `bin/skiff` runs the bundle built from this
 * file on the Deno that npm installed beside it.
 *
 * @module
 */

import { COMMANDS } from "../../cmd/mod.ts";
import { runCli } from "../../lib/cli/run.ts";
import { setSelfEntry } from "../../lib/platform/spawn_self.ts";

/**
 * The Deno flags `bin/skiff` passes, so that skiffd runs the same way.
 * No config: a `deno.json` in the user's folder must not steer Skiff. npm owns
 * `node_modules`: Deno reads it and never writes it.
 */
export const NPM_DENO_FLAGS = ["--no-config", "--node-modules-dir=manual"];

setSelfEntry({ entry: import.meta.url, denoFlags: NPM_DENO_FLAGS });
Deno.exit(await runCli(COMMANDS, Deno.args));
