/**
 * How Skiff wires its hooks into an agent it starts, without touching the
 * user's own agent configuration: command-line settings (Claude Code, Codex),
 * or an extra config of Skiff's own that the agent reads through an
 * environment variable (opencode). Never an edit of the user's files.
 *
 * Gemini CLI and Qwen Code read hooks only from the user's or the project's
 * settings (their system layers must be root-owned, or leave hooks out), so
 * Skiff follows them through titles and screens instead.
 *
 * @module
 */

import { join } from "../platform/path.ts";
import type { AgentProfile } from "./profile.ts";

/** The command a hook runs: this program's `hook` command for an agent and event. */
export type HookCommand = (agent: string, event: string) => string;

/** What wiring an agent's hooks takes. */
export interface HookSetup {
  /** Extra arguments for the agent's command line. */
  args: string[];
  /** Extra environment variables. */
  env: Record<string, string>;
  /** Files to write first (Skiff's own settings layers and plugins). */
  files: { path: string; content: string }[];
}

/** A `hooks` table in the shape Claude Code reads from `--settings`. */
function claudeHooks(
  agent: string,
  events: string[],
  command: HookCommand,
): Record<string, unknown> {
  const table: Record<string, unknown> = {};
  for (const event of events) {
    table[event] = [{
      matcher: "*",
      hooks: [{ type: "command", command: command(agent, event), timeout: 5 }],
    }];
  }
  return table;
}

/**
 * An opencode plugin that hands bus events to Skiff's hook command. Events
 * go out one at a time, in the order opencode raised them: each is a process
 * start, and processes run side by side reach skiffd in any order (opencode
 * raises a turn's last `busy` 3 ms before its `idle`). A newer
 * `session.status` replaces one still waiting to go out.
 */
function opencodePlugin(agent: string, events: string[], command: HookCommand): string {
  return [
    "// Written by Skiff: forwards opencode's lifecycle events to `skiff hook`.",
    'import { spawn } from "node:child_process";',
    `const WANTED = new Set(${JSON.stringify(events)});`,
    `const COMMAND = ${JSON.stringify(command(agent, "EVENT"))};`,
    "const pending = [];",
    "let running = false;",
    "function pump() {",
    "  if (running || pending.length === 0) return;",
    "  running = true;",
    "  const { type, payload } = pending.shift();",
    "  let done = false;",
    "  const finish = () => {",
    "    if (done) return;",
    "    done = true;",
    "    running = false;",
    "    pump();",
    "  };",
    "  const line = COMMAND.replace(/EVENT$/, type);",
    '  const child = spawn("/bin/sh", ["-c", line], { stdio: ["pipe", "ignore", "ignore"] });',
    '  child.on("error", finish);',
    '  child.on("exit", finish);',
    '  child.stdin.on("error", () => {});',
    "  child.stdin.end(payload);",
    "}",
    "export const SkiffHooks = async () => ({",
    "  event: async ({ event }) => {",
    "    if (!WANTED.has(event.type)) return;",
    '    if (event.type === "session.status") {',
    "      for (let i = pending.length - 1; i >= 0; i--) {",
    '        if (pending[i].type === "session.status") pending.splice(i, 1);',
    "      }",
    "    }",
    "    pending.push({ type: event.type, payload: JSON.stringify(event.properties ?? {}) });",
    "    pump();",
    "  },",
    "});",
    "",
  ].join("\n");
}

/**
 * Returns what wires Skiff's hooks into `profile` when Skiff starts it.
 * Files go into `dir`, a folder of Skiff's own.
 */
export function hookSetup(
  profile: AgentProfile,
  command: HookCommand,
  options: { dir: string },
): HookSetup {
  const none: HookSetup = { args: [], env: {}, files: [] };
  const events = Object.keys(profile.hooks.events);
  switch (profile.hooks.kind) {
    case "claude-settings": {
      // A file rather than inline JSON: the Skiff agent's start line is typed into a shell,
      // where a line of hooks would fill the screen and the shell's history.
      const settings = join(options.dir, `${profile.id}-skiff-settings.json`);
      const hooks = { hooks: claudeHooks(profile.id, events, command) };
      return {
        ...none,
        args: ["--settings", settings],
        files: [{ path: settings, content: JSON.stringify(hooks, null, 2) }],
      };
    }
    case "codex-notify": {
      const argv = command(profile.id, "notify");
      return {
        ...none,
        args: ["-c", `notify=${JSON.stringify(["sh", "-c", `${argv} "$1"`, "skiff-hook"])}`],
      };
    }
    case "opencode-plugin": {
      // Named by agent id, so a custom agent built on opencode has its own files.
      const plugin = join(options.dir, `${profile.id}-skiff-hooks.js`);
      const config = join(options.dir, `${profile.id}-skiff.json`);
      return {
        args: [],
        env: { OPENCODE_CONFIG: config },
        files: [
          { path: plugin, content: opencodePlugin(profile.id, events, command) },
          { path: config, content: JSON.stringify({ plugin: [`file://${plugin}`] }, null, 2) },
        ],
      };
    }
    default:
      return none;
  }
}
