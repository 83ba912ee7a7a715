/**
 * Gemini CLI. A `>` composer with a grey placeholder inside a bar-framed box;
 * busy shows `(esc to cancel, Ns)` after a spinner phrase; approvals ask
 * `Allow execution of …?` or `Apply this change?`. Titles: `✦` working,
 * `✋` action required, `◇` ready.
 *
 * @module
 */

import type { AgentProfile } from "./profile.ts";
import { GEMINI_HOOK_EVENTS } from "./hook_events.ts";

/** The Gemini CLI profile. */
export const gemini: AgentProfile = {
  id: "gemini",
  label: "Gemini CLI",
  command: "gemini",
  // It has no --continue; `--resume latest` takes the folder's last session.
  continueArgs: ["--resume", "latest"],
  match: { comm: ["gemini"], argv: ["gemini"] },
  enterDelayMs: 200,
  screen: {
    busy: [
      { name: "cancel hint", pattern: /\(esc to cancel, \d/ },
      { name: "cancel hint", pattern: /\besc to cancel\b.*\d+s\)/ },
      // `--resume` draws the old conversation before the input box is back.
      { name: "resuming", pattern: /^\s*\S\s+Resuming session\.\.\./ },
      // Its hooks (Skiff's own) run before and after each turn, with a spinner, and around a
      // `/clear`, without one: it takes no prompt until they end.
      { name: "running hooks", pattern: /^\s*(?:[\u2800-\u28ff]\s+)?Executing Hooks?: / },
    ],
    approval: [
      { name: "allow question", pattern: /Allow execution of\b/ },
      { name: "apply question", pattern: /Apply this change\?/ },
      { name: "proceed question", pattern: /Do you want to proceed\?/ },
      { name: "allow options", pattern: /\b(Allow once|Yes, allow once|Allow for this session)\b/ },
      { name: "suggest option", pattern: /No, suggest changes \(esc\)/ },
      { name: "confirmation wait", pattern: /Waiting for user confirmation/ },
      { name: "trust dialog", pattern: /Do you trust this folder|Trust folder/ },
    ],
    composer: {
      line: /^\s*[│┃]?\s*>\s+(.*?)\s*[│┃]?$/,
      placeholders: [/^Type your (message|shell command)/],
    },
  },
  title: {
    busy: [{ name: "working title", pattern: /^✦/ }],
    approval: [{ name: "action required title", pattern: /^✋|Action Required/ }],
    idle: [{ name: "ready title", pattern: /^◇/ }],
  },
  // With Skiff's hooks, 1-1.5 s after its input box shows it runs its SessionStart hook, for
  // about 3 s, and reads working meanwhile (`Executing Hook: skiff SessionStart`): its start
  // ends with that hook.
  startHook: "SessionStart",
  // Its idle must hold this long after that hook's event (which comes as the hook starts):
  // on a loaded machine it draws the hook's busy sign a moment after.
  startSettleMs: 1500,
  hooks: { kind: "gemini-system-settings", events: GEMINI_HOOK_EVENTS },
  // It takes the id of a new session (`--session-id`), so Skiff knows it from the start
  // even where its hooks cannot be wired; SessionStart names the next one after `/clear`.
  resume: {
    args: ["--resume", "{id}"],
    newArgs: ["--session-id", "{id}"],
    id: { field: "session_id", events: ["SessionStart", "BeforeAgent", "AfterAgent"] },
    record: {
      field: "transcript_path",
      paths: ["${GEMINI_CLI_HOME:-~}/.gemini/tmp/*/chats/session-*-{id8}.jsonl"],
      // Its file starts with a line naming the session. The start of another Gemini CLI in the
      // same folder removes a new file that holds no prompt yet (its session cleanup); the next
      // write makes the file again without that line, and `--resume` cannot find the session.
      header: "sessionId",
    },
  },
};
