/**
 * The command table: one row per command, enough to list it, complete it and
 * find its module (`cmd/NAME.ts`) without loading any command. How a command
 * is loaded is up to the entry: `main.ts` imports only the chosen one by its
 * file name (so a start builds no graph of the others), and
 * {@linkcode file://./loaders.ts} names every module for bundles and
 * compiled binaries.
 *
 * @module
 */

import type { CommandEntry, CommandSpec } from "../lib/cli/mod.ts";

/** A command as the table lists it: its module is `cmd/<name>.ts`. */
export interface CommandRow {
  /** The word that selects it, and its module's name. */
  name: string;
  /** Other words that select it. */
  aliases?: string[];
  /** One line for `skiff --help`. */
  summary: string;
  /** Left out of `skiff --help` and of completion. */
  hidden?: boolean;
}

/** Every `skiff` command, in the order `skiff --help` lists them. */
export const COMMAND_ROWS: readonly CommandRow[] = [
  {
    name: "dash",
    summary: "The dashboard: every pane live, the ledger, and keys to move between them",
  },
  {
    name: "new",
    summary: "Start a pane running a shell or a command",
  },
  {
    name: "ls",
    aliases: ["list"],
    summary: "List panes",
  },
  {
    name: "attach",
    aliases: ["a"],
    summary: "Connect this terminal to a pane; Ctrl+\\ detaches",
  },
  {
    name: "capture",
    summary: "Print a pane's screen as text",
  },
  {
    name: "keys",
    summary: "Type text and named keys into a pane",
  },
  {
    name: "send",
    summary: "Type a task into an agent, only when it is safe",
  },
  {
    name: "wait",
    summary: "Wait until a pane is idle, working, waiting, exited or a bare shell",
  },
  {
    name: "seen",
    summary: "Mark a pane seen: clear its unread flag",
  },
  {
    name: "explain",
    summary: "Show which agent is in a pane, each signal that fired, and the state",
  },
  {
    name: "agents",
    summary: "List the known agents and which are installed",
  },
  {
    name: "rename",
    summary: "Rename a pane",
  },
  {
    name: "kill",
    summary: "End a pane's process and remove the pane",
  },
  {
    name: "mark",
    summary: "Set, clear or show a session's marks",
  },
  {
    name: "events",
    summary: "Follow the daemon's events, one a line",
  },
  {
    name: "ledger",
    summary: "The Skiff agent's task ledger",
  },
  {
    name: "worktree",
    summary: "List, remove or prune the git worktrees Skiff made for panes",
  },
  {
    name: "diff",
    summary: "Show a pane's worktree against its base",
  },
  {
    name: "land",
    summary: "Land a pane's worktree on its base: rebase, check, fast-forward, all or nothing",
  },
  {
    name: "app",
    summary: "Open the app: the Skiff agent, the panes as terminals, the ledger and Settings",
  },
  {
    name: "skipper",
    summary: "Attach to the Skiff agent, starting it when needed; Ctrl+\\ detaches",
  },
  {
    name: "settings",
    summary: "Show or change the Skiff agent's settings",
  },
  {
    name: "watch",
    summary: "Wake the Skiff agent when its tasks' panes have news (Skiff starts it)",
  },
  {
    name: "project",
    summary: "Add, list or remove projects",
  },
  {
    name: "host",
    summary: "Add, list, check or remove other hosts (reached over SSH)",
  },
  {
    name: "hook",
    summary: "Endpoint for agent hooks (agents call it, not people)",
  },
  {
    name: "daemon",
    summary: "Run, start, stop, restart, upgrade, reload or inspect skiffd",
  },
  {
    name: "completions",
    summary: "Print a shell completion script (bash, zsh or fish)",
  },
];

/** The command table, each command loaded by `load` when chosen. */
export function commandTable(load: (name: string) => Promise<CommandSpec>): CommandEntry[] {
  return COMMAND_ROWS.map((row) => ({ ...row, aliases: row.aliases, load: () => load(row.name) }));
}
