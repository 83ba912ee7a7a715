/**
 * The `skiff` program: every command, the daemon and the watcher.
 *
 * @module
 */

import { commandTable } from "./cmd/mod.ts";
import { runCli } from "./lib/cli/run.ts";
import type { CompleteKind } from "./lib/cli/spec.ts";
import { importLater } from "./lib/platform/later.ts";

if (import.meta.main) {
  // Loaded only when a shell asks for completions: every other start stays light.
  const values = async (kind: CompleteKind) =>
    (await importLater<typeof import("./lib/cli/completion_values.ts")>(
      "lib/cli/completion_values.ts",
    )).completionValues(kind);
  // The chosen command's module is imported by its computed name: Deno then builds the module
  // graph of that command alone, not of every command, before anything runs. A compiled binary
  // carries them all (`deno compile --include cmd/loaders.ts`).
  const commands = commandTable(async (name) =>
    (await import(new URL(`./cmd/${name}.ts`, import.meta.url).href)).command
  );
  // `skiff` alone in a terminal opens the dashboard; piped, it prints the help.
  const code = await runCli(commands, Deno.args, { values, bare: "dash" });
  Deno.exit(code);
}
