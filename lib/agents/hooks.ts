/**
 * What agents' hook events mean, and how Skiff wires hooks into an agent it
 * starts without touching the user's own agent configuration: command-line
 * settings (Claude Code, Codex), or an extra config of Skiff's own that the
 * agent reads through an environment variable (opencode). Never an edit of
 * the user's files.
 *
 * Gemini CLI and Qwen Code read hooks only from the user's or the project's
 * settings (their system layers must be root-owned, or leave hooks out), so
 * Skiff follows them through titles and screens instead.
 *
 * @module
 */

import { join } from "node:path";
import type { HookReport } from "./tracker.ts";
import type { AgentProfile } from "./profile.ts";

const CLAUDE: Record<string, HookReport["state"]> = {
  UserPromptSubmit: "working",
  PreToolUse: "working",
  PostToolUse: "working",
  PermissionRequest: "waiting",
  Stop: "idle",
  StopFailure: "idle",
  SessionStart: "info",
  SessionEnd: "info",
};

const GEMINI: Record<string, HookReport["state"]> = {
  BeforeAgent: "working",
  BeforeTool: "working",
  AfterTool: "working",
  AfterAgent: "idle",
  SessionStart: "info",
  SessionEnd: "info",
};

const OPENCODE: Record<string, HookReport["state"]> = {
  "permission.asked": "waiting",
  "permission.replied": "working",
  "session.idle": "idle",
};

/**
 * Returns what a hook event means for the agent's state. `payload` is the
 * JSON the agent passed, used where the event name alone is not enough.
 */
export function hookState(
  agent: string,
  event: string,
  payload: Record<string, unknown>,
): HookReport["state"] {
  if (event === "Notification") {
    const kind = String(payload.notification_type ?? "");
    return /permission|ToolPermission|elicitation/i.test(kind) ? "waiting" : "info";
  }
  if (agent === "codex") {
    // Codex's notify program gets the JSON as its last argument.
    const type = String(payload.type ?? event);
    if (type === "agent-turn-complete") return "idle";
    if (type === "approval-requested") return "waiting";
    if (type === "agent-turn-start") return "working";
    return CLAUDE[event] ?? "info";
  }
  if (agent === "opencode") {
    if (event === "session.status") {
      const status = payload.status as { type?: string } | undefined;
      return status?.type === "busy" ? "working" : status?.type === "idle" ? "idle" : "info";
    }
    return OPENCODE[event] ?? "info";
  }
  if (agent === "gemini") return GEMINI[event] ?? "info";
  return CLAUDE[event] ?? GEMINI[event] ?? "info";
}

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

const CLAUDE_EVENTS = [
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PermissionRequest",
  "Notification",
  "Stop",
  "SessionEnd",
];
const OPENCODE_EVENTS = [
  "session.status",
  "session.idle",
  "permission.asked",
  "permission.replied",
];

/** A `hooks` table in the Claude-style shape that Claude Code, Gemini and Qwen share. */
function hookTable(
  agent: string,
  events: string[],
  command: HookCommand,
  matcher?: string,
): Record<string, unknown> {
  const table: Record<string, unknown> = {};
  for (const event of events) {
    table[event] = [{
      ...(matcher ? { matcher } : {}),
      hooks: [{ type: "command", command: command(agent, event), timeout: 5 }],
    }];
  }
  return table;
}

/** An opencode plugin that hands bus events to Skiff's hook command. */
function opencodePlugin(command: HookCommand): string {
  return [
    "// Written by Skiff: forwards opencode's lifecycle events to `skiff hook`.",
    'import { spawn } from "node:child_process";',
    `const WANTED = new Set(${JSON.stringify(OPENCODE_EVENTS)});`,
    `const COMMAND = ${JSON.stringify(command("opencode", "EVENT"))};`,
    "export const SkiffHooks = async () => ({",
    "  event: async ({ event }) => {",
    "    if (!WANTED.has(event.type)) return;",
    "    const line = COMMAND.replace(/EVENT$/, event.type);",
    '    const child = spawn("/bin/sh", ["-c", line], { stdio: ["pipe", "ignore", "ignore"] });',
    '    child.on("error", () => {});',
    "    child.stdin.end(JSON.stringify(event.properties ?? {}));",
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
  switch (profile.hooks) {
    case "claude-settings":
      return {
        ...none,
        args: [
          "--settings",
          JSON.stringify({ hooks: hookTable("claude", CLAUDE_EVENTS, command, "*") }),
        ],
      };
    case "codex-notify": {
      const argv = command("codex", "notify");
      return {
        ...none,
        args: ["-c", `notify=${JSON.stringify(["sh", "-c", `${argv} "$1"`, "skiff-hook"])}`],
      };
    }
    case "opencode-plugin": {
      const plugin = join(options.dir, "opencode-skiff-hooks.js");
      const config = join(options.dir, "opencode-skiff.json");
      return {
        args: [],
        env: { OPENCODE_CONFIG: config },
        files: [
          { path: plugin, content: opencodePlugin(command) },
          { path: config, content: JSON.stringify({ plugin: [`file://${plugin}`] }, null, 2) },
        ],
      };
    }
    default:
      return none;
  }
}
