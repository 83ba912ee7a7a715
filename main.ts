/**
 * The `skiff` program: every command, the daemon and the watcher.
 *
 * @module
 */

import { COMMANDS } from "./cmd/mod.ts";
import { runCli } from "./lib/cli/run.ts";
import type { CompleteKind } from "./lib/cli/spec.ts";

if (import.meta.main) {
  // Loaded only when a shell asks for completions: every other start stays light.
  const values = async (kind: CompleteKind) =>
    (await import("./lib/cli/completion_values.ts")).completionValues(kind);
  const code = await runCli(COMMANDS, Deno.args, { values });
  Deno.exit(code);
}
