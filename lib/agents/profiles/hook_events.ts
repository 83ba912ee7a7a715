/**
 * Hook event names that several agents share, with what each means.
 * Claude Code's names are used by Qwen Code too; Gemini CLI has its own.
 *
 * @module
 */

import type { HookCases, HookMeaning } from "./profile.ts";

/**
 * A `Notification` hook: a permission or a question is waiting; an idle
 * prompt (Qwen Code sends one as each turn ends, Claude Code after a quiet
 * minute) says the agent waits for its next task; anything else is news.
 */
export const NOTIFICATION: HookCases = {
  field: "notification_type",
  cases: [
    { pattern: /permission|ToolPermission|elicitation/i, state: "waiting" },
    { pattern: /^idle_prompt$/, state: "idle" },
  ],
  otherwise: "info",
};

/** Claude Code's hook events (Qwen Code and Codex's hooks use the same names). */
export const CLAUDE_HOOK_EVENTS: Readonly<Record<string, HookMeaning>> = {
  UserPromptSubmit: "working",
  PreToolUse: "working",
  PostToolUse: "working",
  PermissionRequest: "waiting",
  Notification: NOTIFICATION,
  Stop: "idle",
  StopFailure: "idle",
  SessionEnd: "info",
};

/** Gemini CLI's hook events. */
export const GEMINI_HOOK_EVENTS: Readonly<Record<string, HookMeaning>> = {
  BeforeAgent: "working",
  BeforeTool: "working",
  AfterTool: "working",
  AfterAgent: "idle",
  Notification: NOTIFICATION,
  SessionEnd: "info",
};

/**
 * Both sets: for agents whose hooks a person points at `skiff hook` by hand,
 * and the default for custom agents that name no events of their own.
 */
export const COMMON_HOOK_EVENTS: Readonly<Record<string, HookMeaning>> = {
  ...CLAUDE_HOOK_EVENTS,
  ...GEMINI_HOOK_EVENTS,
};
