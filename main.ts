/**
 * The `skiff` program: every command, the daemon and the watcher.
 *
 * @module
 */

import { COMMANDS } from "./cmd/mod.ts";
import { runCli } from "./lib/cli/run.ts";

if (import.meta.main) {
  const code = await runCli(COMMANDS, Deno.args);
  Deno.exit(code);
}
