/**
 * OpenAI Codex CLI. Its composer is a `›` row with a dim placeholder; a
 * `• Working (Ns • esc to interrupt)` line shows until the first token, and
 * while it streams only the title's braille spinner says it works. Approval
 * dialogs end with `Press enter to confirm or esc to cancel`. It also reports
 * its state itself with OSC 7501 (`state=working:app=codex`), which ranks
 * above the screen; at its start, it reports idle, then works a moment on
 * its MCP servers, then idle again. At a start that waits for another Codex's backfill of its
 * state database, its input box holds its own notice, `state db backfill is
 * running at …`, not a draft: it takes a prompt then, and runs it once it
 * has started (`Waiting for startup`).
 *
 * @module
 */

import type { AgentProfile } from "./profile.ts";
import { CLAUDE_HOOK_EVENTS } from "./hook_events.ts";

/** Codex's notice, in its input box, while it waits for another Codex's database backfill. */
const BACKFILL_NOTICE = /\bstate db backfill is \w+ at /;

/** The Codex profile. */
export const codex: AgentProfile = {
  id: "codex",
  label: "Codex",
  command: "codex",
  // Codex runs its tool calls in a login shell by default, which rebuilds PATH from the
  // profile files and loses the pane's own (the caller's PATH, with `skiff` on it).
  startArgs: ["-c", "allow_login_shell=false"],
  continueArgs: ["resume", "--last"],
  match: { comm: ["codex"], argv: ["codex", "codex.js"] },
  // Codex reads fast keys as a paste burst for 120 ms; Enter must come later.
  enterDelayMs: 250,
  screen: {
    busy: [
      { name: "working line", pattern: /^\s*[•◦·]\s*(Working|Thinking|Waiting for background)\b/ },
      { name: "interrupt hint", pattern: /\besc to interrupt\b/i },
      { name: "reconnecting", pattern: /\bReconnecting\.\.\./ },
      // A prompt taken while it still starts waits for the start.
      { name: "waiting for startup", pattern: /^\s*Waiting for startup\b/ },
    ],
    starting: [{ name: "backfill notice", pattern: BACKFILL_NOTICE }],
    approval: [
      {
        name: "run question",
        pattern:
          /Would you like to (run the following command|make the following edits|grant these permissions)/,
      },
      { name: "confirm footer", pattern: /Press enter to confirm or esc to cancel/i },
      { name: "proceed option", pattern: /^\s*›?\s*1\.\s+Yes, proceed\b/ },
      { name: "answer footer", pattern: /enter to submit (answer|all)/i },
      { name: "hooks review", pattern: /Hooks need review/ },
      { name: "allow question", pattern: /\ballow command\?/i },
    ],
    composer: {
      line: /^›(?!\s*\d+\.\s)(?:\s|\u00a0)?(.*)$/,
      continuation: /^\s{2}\S/,
      placeholders: [
        /^Ask Codex to do anything$/,
        /^(Implement|Write tests for|Find and fix|Explain|Summarize|Improve|Use \/|Run \/)/,
        BACKFILL_NOTICE,
      ],
    },
  },
  title: {
    busy: [{ name: "spinner title", pattern: /^[\u2800-\u28ff]/ }],
    approval: [{ name: "action required title", pattern: /Action Required/ }],
  },
  statusApp: "codex",
  // Its first `state=idle` comes as its input box is ready; 0.1–0.4 s later it reports
  // `state=working` while it starts its MCP servers (0.6–0.9 s for Skiff's own), then idle
  // again. Its start is done once a report of idle has held this long.
  startSettleMs: 1000,
  hooks: {
    kind: "codex-notify",
    events: {
      // The notify program gets one event; its payload's type says which.
      notify: {
        field: "type",
        cases: [
          { pattern: /^agent-turn-complete$/, state: "idle" },
          { pattern: /^approval-requested$/, state: "waiting" },
          { pattern: /^agent-turn-start$/, state: "working" },
        ],
      },
      ...CLAUDE_HOOK_EVENTS,
    },
  },
  // Its notify program gets `thread-id` after each turn, the conversation's id (a `codex
  // resume` keeps it); the internal thread that titles a conversation notifies too, but
  // keeps no rollout file, so an id counts only once its rollout is there.
  resume: {
    args: ["resume", "{id}"],
    id: { field: "thread-id", events: ["notify"], needsRecord: true },
    record: { paths: ["${CODEX_HOME:-~/.codex}/sessions/*/*/*/rollout-*-{id}.jsonl"] },
  },
};
