/**
 * The command table: one row per command, loaded only when chosen.
 *
 * @module
 */

import type { CommandEntry } from "../lib/cli/mod.ts";

/** Every `skiff` command, in the order `skiff --help` lists them. */
export const COMMANDS: CommandEntry[] = [
  {
    name: "new",
    summary: "Start a pane running a shell or a command",
    load: async () => (await import("./new.ts")).command,
  },
  {
    name: "ls",
    aliases: ["list"],
    summary: "List panes",
    load: async () => (await import("./ls.ts")).command,
  },
  {
    name: "attach",
    aliases: ["a"],
    summary: "Connect this terminal to a pane; Ctrl+\\ detaches",
    load: async () => (await import("./attach.ts")).command,
  },
  {
    name: "capture",
    summary: "Print a pane's screen as text",
    load: async () => (await import("./capture.ts")).command,
  },
  {
    name: "keys",
    summary: "Type text and named keys into a pane",
    load: async () => (await import("./keys.ts")).command,
  },
  {
    name: "send",
    summary: "Type a task into an agent, only when it is safe",
    load: async () => (await import("./send.ts")).command,
  },
  {
    name: "wait",
    summary: "Wait until a pane is idle, working, waiting or exited",
    load: async () => (await import("./wait.ts")).command,
  },
  {
    name: "seen",
    summary: "Mark a pane seen: clear its unread flag",
    load: async () => (await import("./seen.ts")).command,
  },
  {
    name: "explain",
    summary: "Show which agent is in a pane, each signal that fired, and the state",
    load: async () => (await import("./explain.ts")).command,
  },
  {
    name: "agents",
    summary: "List the known agents and which are installed",
    load: async () => (await import("./agents.ts")).command,
  },
  {
    name: "rename",
    summary: "Rename a pane",
    load: async () => (await import("./rename.ts")).command,
  },
  {
    name: "kill",
    summary: "End a pane's process and remove the pane",
    load: async () => (await import("./kill.ts")).command,
  },
  {
    name: "mark",
    summary: "Set, clear or show a session's marks",
    load: async () => (await import("./mark.ts")).command,
  },
  {
    name: "events",
    summary: "Follow the daemon's events, one a line",
    load: async () => (await import("./events.ts")).command,
  },
  {
    name: "ledger",
    summary: "The Skiff agent's task ledger",
    load: async () => (await import("./ledger.ts")).command,
  },
  {
    name: "app",
    summary: "Open the app: the Skiff agent, the panes as terminals, the ledger and Settings",
    load: async () => (await import("./app.ts")).command,
  },
  {
    name: "skipper",
    summary: "Attach to the Skiff agent, starting it when needed; Ctrl+\\ detaches",
    load: async () => (await import("./skipper.ts")).command,
  },
  {
    name: "settings",
    summary: "Show or change the Skiff agent's settings",
    load: async () => (await import("./settings.ts")).command,
  },
  {
    name: "watch",
    summary: "Wake the Skiff agent when its tasks' panes have news (Skiff starts it)",
    load: async () => (await import("./watch.ts")).command,
  },
  {
    name: "project",
    summary: "Add, list or remove projects",
    load: async () => (await import("./project.ts")).command,
  },
  {
    name: "hook",
    summary: "Endpoint for agent hooks (agents call it, not people)",
    load: async () => (await import("./hook.ts")).command,
  },
  {
    name: "daemon",
    summary: "Run, start, stop, restart, reload or inspect skiffd",
    load: async () => (await import("./daemon.ts")).command,
  },
  {
    name: "completions",
    summary: "Print a shell completion script (bash, zsh or fish)",
    load: async () => (await import("./completions.ts")).command,
  },
];
