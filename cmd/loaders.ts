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
  land: () => import("./land.ts"),
  app: () => import("./app.ts"),
  skipper: () => import("./skipper.ts"),
  settings: () => import("./settings.ts"),
  watch: () => import("./watch.ts"),
  mcp: () => import("./mcp.ts"),
  project: () => import("./project.ts"),
  host: () => import("./host.ts"),
  hook: () => import("./hook.ts"),
  daemon: () => import("./daemon.ts"),
  completions: () => import("./completions.ts"),
};

/**
 * The modules that others load by a computed name (`importLater`, see
 * `lib/platform/later.ts`), keyed by their path from the repository's root:
 * named here so that `deno compile` carries them too.
 */
export const LATER: Record<string, () => Promise<unknown>> = {
  "lib/cli/completion_values.ts": () => import("../lib/cli/completion_values.ts"),
  "lib/cli/help.ts": () => import("../lib/cli/help.ts"),
  "lib/cli/complete.ts": () => import("../lib/cli/complete.ts"),
  "lib/agents/checked_config.ts": () => import("../lib/agents/checked_config.ts"),
  "lib/platform/apart.ts": () => import("../lib/platform/apart.ts"),
  "lib/client/saved_panes.ts": () => import("../lib/client/saved_panes.ts"),
  "lib/dash/ledger_follow.ts": () => import("../lib/dash/ledger_follow.ts"),
  "lib/screen/screen.ts": () => import("../lib/screen/screen.ts"),
  "lib/hosts/resolve.ts": () => import("../lib/hosts/resolve.ts"),
  "lib/hosts/remote.ts": () => import("../lib/hosts/remote.ts"),
  "lib/hosts/link_times.ts": () => import("../lib/hosts/link_times.ts"),
  "lib/ops/new_pane.ts": () => import("../lib/ops/new_pane.ts"),
  "lib/overview/older_skiffd.ts": () => import("../lib/overview/older_skiffd.ts"),
  "lib/skipper/open.ts": () => import("../lib/skipper/open.ts"),
  "lib/land/mod.ts": () => import("../lib/land/mod.ts"),
  "lib/dash/later/mod.ts": () => import("../lib/dash/later/mod.ts"),
  "lib/dash/dashboard.ts": () => import("../lib/dash/dashboard.ts"),
};

/** The command table with every command loaded through {@linkcode LOADERS}. */
export const COMMANDS: CommandEntry[] = commandTable(async (name) =>
  (await LOADERS[name]()).command
);
