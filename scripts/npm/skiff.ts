/**
 * The entry of the npm package: `bin/skiff` runs the bundle built from this
 * file on the Deno that npm installed beside it. It is `main.ts` plus telling
 * skiffd's spawner how this program is run.
 *
 * @module
 */

import { COMMANDS, LATER } from "../../cmd/loaders.ts";
import { runCli } from "../../lib/cli/run.ts";
import type { CompleteKind } from "../../lib/cli/spec.ts";
import { setSelfEntry } from "../../lib/platform/spawn_self.ts";
import { useLoaders } from "../../lib/platform/later.ts";

/**
 * The Deno flags `bin/skiff` passes, so that skiffd runs the same way.
 * No config: a `deno.json` in the user's folder must not steer Skiff. npm owns
 * `node_modules`: Deno reads it and never writes it.
 */
export const NPM_DENO_FLAGS = ["--no-config", "--node-modules-dir=manual"];

setSelfEntry({ entry: import.meta.url, denoFlags: NPM_DENO_FLAGS });
// The bundle's modules have no files of their own: what loads later loads through its chunks.
useLoaders(LATER);
// As in main.ts: completion values load only when a shell asks for them.
const values = async (kind: CompleteKind) =>
  (await import("../../lib/cli/completion_values.ts")).completionValues(kind);
Deno.exit(await runCli(COMMANDS, Deno.args, { values, bare: "dash" }));
