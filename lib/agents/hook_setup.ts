/**
 * How Skiff wires its hooks into an agent it starts, without touching the
 * user's own agent configuration: command-line settings (Claude Code, Codex),
 * an extra config of Skiff's own that the agent reads through an
 * environment variable (opencode), or a system settings layer of Skiff's own
 * that holds the person's system settings plus Skiff's hooks (Gemini CLI,
 * Qwen Code; see `system_settings.ts` for when those agents read it). Never
 * an edit of the user's files.
 *
 * Hooks serve two ends: an agent's turns (what each event means for its
 * state), and its conversation's id for a resume after a restore (the events
 * that name it, from the profile's `resume` rule).
 *
 * @module
 */

import { join } from "../platform/path.ts";
import type { AgentProfile } from "./profiles/mod.ts";
import {
  geminiAcceptsSystemFile,
  personSystemSettings,
  systemSettingsEnv,
  withHooks,
} from "./system_settings.ts";

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
  /** Why no hooks are wired, when none are: the agent is followed by its screen. */
  unwired?: string;
}

/** Every hook event Skiff subscribes to for `profile`: its state events, then its id events. */
export function hookEvents(profile: AgentProfile): string[] {
  return [...new Set([...Object.keys(profile.hooks.events), ...(profile.resume?.id.events ?? [])])];
}

/** A `hooks` table: each event with the one hook group `group` makes for it. */
function hooksTable(
  events: string[],
  group: (event: string) => unknown,
): Record<string, unknown[]> {
  return Object.fromEntries(events.map((event) => [event, [group(event)]]));
}

/** A `hooks` table in the shape Claude Code reads from `--settings`. */
function claudeHooks(agent: string, events: string[], command: HookCommand) {
  return hooksTable(events, (event) => ({
    matcher: "*",
    hooks: [{ type: "command", command: command(agent, event), timeout: 5 }],
  }));
}

/**
 * A `hooks` table for Gemini CLI's and Qwen Code's settings: no matcher (a
 * lifecycle event has none) and their own default time limit (their
 * `timeout` is in milliseconds, not Claude Code's seconds). Each hook has a
 * short name: Gemini CLI shows a running hook's name (else its whole command
 * line) in its status row, `Executing Hook: NAME`, and a command line wider
 * than the row garbles it, so its profile could not read that it works.
 */
function settingsHooks(agent: string, events: string[], command: HookCommand) {
  return hooksTable(events, (event) => ({
    hooks: [{ type: "command", name: `skiff ${event}`, command: command(agent, event) }],
  }));
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
    "// session.updated comes often; only a change of session is news.",
    "let lastSession;",
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
    '    if (event.type === "session.updated") {',
    "      const id = event.properties?.info?.id;",
    "      if (id === undefined || id === lastSession || event.properties?.info?.parentID) return;",
    "      lastSession = id;",
    '    } else if (event.type === "session.created" && !event.properties?.info?.parentID) {',
    "      lastSession = event.properties?.info?.id;",
    "    }",
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
 * Files go into `dir`, a folder of Skiff's own; `env` is the environment the
 * agent will run in (by default this process's), where the person's own
 * system settings are found.
 */
export function hookSetup(
  profile: AgentProfile,
  command: HookCommand,
  options: { dir: string; env?: Record<string, string | undefined> },
): HookSetup {
  const none: HookSetup = { args: [], env: {}, files: [] };
  const events = hookEvents(profile);
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
    case "gemini-system-settings":
    case "qwen-system-settings": {
      const agent = profile.hooks.kind === "gemini-system-settings" ? "gemini" : "qwen";
      const env = options.env ?? Deno.env.toObject();
      const file = join(options.dir, `${profile.id}-skiff-system-settings.json`);
      if (agent === "gemini" && !geminiAcceptsSystemFile(file)) {
        return {
          ...none,
          unwired:
            "Gemini CLI reads a system settings file only where it and its folders belong to root",
        };
      }
      const person = personSystemSettings(agent, env);
      if (!person.ok) return { ...none, unwired: `the person's system settings: ${person.why}` };
      const settings = withHooks(person.settings, settingsHooks(profile.id, events, command));
      return {
        ...none,
        env: systemSettingsEnv(agent, file, { path: person.path, env }),
        files: [{ path: file, content: JSON.stringify(settings, null, 2) }],
      };
    }
    default:
      return { ...none, unwired: `Skiff has no way to wire ${profile.label}'s hooks` };
  }
}
