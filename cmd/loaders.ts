/**
 * Every command module by name, imported by name so that bundlers and
 * `deno compile` see them all. `main.ts` does not use this table: under
 * `deno run` a start would then build the graph of every command.
 *
 * @module
 */

import type { CommandEntry, CommandSpec } from "../lib/cli/mod.ts";
import { commandTable } from "./mod.ts";

/** Each command's module loader, by command name. */
export const LOADERS: Record<string, () => Promise<{ command: CommandSpec }>> = {
  dash: () => import("./dash.ts"),
  new: () => import("./new.ts"),
  ls: () => import("./ls.ts"),
  attach: () => import("./attach.ts"),
  capture: () => import("./capture.ts"),
  keys: () => import("./keys.ts"),
  send: () => import("./send.ts"),
  wait: () => import("./wait.ts"),
  seen: () => import("./seen.ts"),
  explain: () => import("./explain.ts"),
  agents: () => import("./agents.ts"),
  rename: () => import("./rename.ts"),
  kill: () => import("./kill.ts"),
  mark: () => import("./mark.ts"),
  events: () => import("./events.ts"),
  ledger: () => import("./ledger.ts"),
  worktree: () => import("./worktree.ts"),
  diff: () => import("./diff.ts"),
  app: () => import("./app.ts"),
  skipper: () => import("./skipper.ts"),
  settings: () => import("./settings.ts"),
  watch: () => import("./watch.ts"),
  project: () => import("./project.ts"),
  host: () => import("./host.ts"),
  hook: () => import("./hook.ts"),
  daemon: () => import("./daemon.ts"),
  completions: () => import("./completions.ts"),
};

/** The command table with every command loaded through {@linkcode LOADERS}. */
export const COMMANDS: CommandEntry[] = commandTable(async (name) =>
  (await LOADERS[name]()).command
);
