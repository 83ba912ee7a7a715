/**
 * Claude Code. Facts from its 2.1 releases: the composer is a `❯` row
 * between two `────` rules and stays drawn while it works; the busy line is
 * a glyph, a gerund with `…` and a `(Ns · ↓ N tokens)` counter, over a
 * footer that says `esc to interrupt`; titles start with a braille or
 * half-circle spinner while working and `✳` when idle.
 *
 * @module
 */

import type { AgentProfile } from "./profile.ts";
import { CLAUDE_HOOK_EVENTS } from "./hook_events.ts";

/** The Claude Code profile. */
export const claude: AgentProfile = {
  id: "claude",
  label: "Claude Code",
  command: "claude",
  continueArgs: ["--continue"],
  match: { comm: ["claude", "claude.exe"], argv: ["claude", "claude.exe"] },
  // Claude treats keys within 100 ms of a paste as part of it.
  enterDelayMs: 250,
  screen: {
    busy: [
      { name: "spinner line", pattern: /^\s*[·✢*✶✻✽✳✺⏺◐◑◒◓]\s+\S.*…\s*\(.*\d/ },
      { name: "interrupt hint", pattern: /\b(esc|ctrl\+c) to interrupt\b/i },
      { name: "retrying", pattern: /\bRetrying in \d+s\b/ },
      { name: "background agents", pattern: /\bctrl\+b to run in background\b/ },
    ],
    notBusy: [/\b(\d+)\/\1 agents done\b/],
    approval: [
      { name: "proceed question", pattern: /Do you want to (proceed|make this edit|create|allow)/ },
      { name: "numbered options", pattern: /^\s*❯\s*1\.\s+(Yes|Allow)\b/ },
      { name: "no-and-tell option", pattern: /No, and tell Claude what to do differently/ },
      { name: "deny option", pattern: /\d+\.\s*Deny\s*\(esc\)/i },
      { name: "dialog footer", pattern: /Esc to cancel\s*·\s*(Tab to amend|Enter to confirm)/ },
      { name: "confirm footer", pattern: /Enter to confirm\s*·\s*Esc to cancel/ },
      { name: "select footer", pattern: /Enter to select\s*·.*to navigate/ },
      { name: "question", pattern: /Use arrow keys to navigate|Press Enter to select/ },
      {
        name: "trust prompt",
        pattern: /Do you trust the files in this folder|Yes, I trust this folder/,
      },
    ],
    composer: {
      line: /^\s*❯(?:\s|\u00a0)?(.*)$/,
      frame: /^\s*[─━]{8,}/,
      continuation: /^\s{2,}\S/,
      placeholders: [/^Try "/],
    },
  },
  title: {
    busy: [{ name: "spinner title", pattern: /^[\u2800-\u28ff◐◑◒◓]\s/ }],
    idle: [{ name: "idle title", pattern: /^✳\s/ }],
  },
  progress: true,
  hooks: { kind: "claude-settings", events: CLAUDE_HOOK_EVENTS },
  // Hooks carry `session_id`, which `/clear` and compaction rotate (SessionStart says so);
  // subagents' hooks carry an `agent_id`. The transcript is per folder.
  resume: {
    args: ["--resume", "{id}"],
    id: {
      field: "session_id",
      events: ["SessionStart", "UserPromptSubmit", "Stop"],
      unless: ["agent_id"],
    },
    record: {
      field: "transcript_path",
      paths: ["${CLAUDE_CONFIG_DIR:-~/.claude}/projects/*/{id}.jsonl"],
    },
  },
};
