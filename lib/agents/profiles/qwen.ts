/**
 * Qwen Code (a Gemini CLI fork). A `>` composer between rules with a grey
 * placeholder; busy shows `(Ns · … esc to cancel)`; approvals ask
 * `Allow execution of: '…'?`. Newer builds set `◐` / `✳` titles. Its
 * `/clear` shows nothing while it runs: Skiff holds it working from its
 * Enter until its SessionStart hook.
 *
 * @module
 */

import type { AgentProfile } from "./profile.ts";
import { CLAUDE_HOOK_EVENTS } from "./hook_events.ts";

/** The Qwen Code profile. */
export const qwen: AgentProfile = {
  id: "qwen",
  label: "Qwen Code",
  command: "qwen",
  continueArgs: ["--continue"],
  match: { comm: ["qwen"], argv: ["qwen"] },
  enterDelayMs: 250,
  screen: {
    busy: [
      { name: "cancel hint", pattern: /\besc to cancel\)/ },
      { name: "steer hint", pattern: /Enter to steer/ },
    ],
    approval: [
      { name: "allow question", pattern: /Allow execution of\b/ },
      { name: "allow options", pattern: /\bYes, allow once\b/ },
      { name: "suggest option", pattern: /No, suggest changes \(esc\)/ },
      { name: "confirmation wait", pattern: /Waiting for user confirmation/ },
      { name: "apply question", pattern: /Apply this change\?/ },
    ],
    composer: {
      line: /^\s*[│┃]?\s*>\s+(.*?)\s*[│┃]?$/,
      placeholders: [/^Type your (message|shell command)/],
    },
  },
  title: {
    busy: [{ name: "spinner title", pattern: /^[◐◑◒◓]/ }],
    idle: [{ name: "idle title", pattern: /^✳/ }],
  },
  // `/clear` (or `/reset`, `/new`) clears the screen at once, then runs its SessionEnd hook,
  // resets its chat and runs its SessionStart hook, with nothing on screen and dropping what is
  // typed meanwhile: it works until that hook comes.
  quietCommands: [{ name: "/clear", pattern: /^\/(?:clear|reset|new)\b/, until: "SessionStart" }],
  hooks: { kind: "qwen-system-settings", events: CLAUDE_HOOK_EVENTS },
  // Like Gemini CLI: it takes the id of a new session, and its hooks (Claude Code's names)
  // carry `session_id`; each project's chats are in its own folder.
  resume: {
    args: ["--resume", "{id}"],
    newArgs: ["--session-id", "{id}"],
    id: { field: "session_id", events: ["SessionStart", "UserPromptSubmit", "Stop"] },
    record: {
      field: "transcript_path",
      paths: ["${QWEN_HOME:-~/.qwen}/projects/*/chats/{id}.jsonl"],
    },
  },
};
