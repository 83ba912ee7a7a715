/**
 * What agents' hook events mean, and how Skiff wires hooks into an agent it
 * starts without touching the user's own agent configuration: extra
 * command-line settings, never edited files.
 *
 * @module
 */

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
  if (agent === "gemini" || agent === "qwen") return GEMINI[event] ?? CLAUDE[event] ?? "info";
  return CLAUDE[event] ?? "info";
}

/** The command a hook runs: this program's `hook` command for an agent and event. */
export type HookCommand = (agent: string, event: string) => string;

/**
 * Returns the extra arguments that wire Skiff's hooks into `profile` when
 * Skiff starts it, or none when the agent has no such switch.
 */
export function hookArgs(profile: AgentProfile, command: HookCommand): string[] {
  if (profile.hooks === "claude-settings") {
    const events = [
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "PermissionRequest",
      "Notification",
      "Stop",
      "SessionEnd",
    ];
    const hooks: Record<string, unknown> = {};
    for (const event of events) {
      hooks[event] = [{
        matcher: "*",
        hooks: [{ type: "command", command: command("claude", event), timeout: 5 }],
      }];
    }
    return ["--settings", JSON.stringify({ hooks })];
  }
  if (profile.hooks === "codex-notify") {
    const argv = command("codex", "notify");
    return ["-c", `notify=${JSON.stringify(["sh", "-c", `${argv} "$1"`, "skiff-hook"])}`];
  }
  return [];
}
