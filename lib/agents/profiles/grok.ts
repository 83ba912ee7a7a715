/**
 * Grok CLI: both the xAI build (a braille status line ending in `[stop]`,
 * `Esc:cancel` footer, `⚠ Action Required` title) and the community npm CLI
 * (a `│ ❯ … │` box, `esc to interrupt`, `Do you want to proceed with this
 * operation?`).
 *
 * @module
 */

import type { AgentProfile } from "./profile.ts";
import { COMMON_HOOK_EVENTS } from "./hook_events.ts";

/** The Grok profile. */
export const grok: AgentProfile = {
  id: "grok",
  label: "Grok",
  command: "grok",
  // The community CLI (0.0.34) has no way to continue a conversation.
  continueArgs: null,
  match: { comm: ["grok"], argv: ["grok"] },
  enterDelayMs: 200,
  screen: {
    busy: [
      { name: "interrupt hint", pattern: /\besc to interrupt\b/i },
      { name: "stop status", pattern: /\[stop\]\s*$/ },
      { name: "cancel footer", pattern: /\bEsc:cancel\b/ },
    ],
    approval: [
      { name: "proceed question", pattern: /Do you want to proceed with this operation\?/ },
      { name: "proceed option", pattern: /\byes, proceed\b/i },
      { name: "select footer", pattern: /\d+\/\d+:select/ },
      { name: "navigate footer", pattern: /↑↓ navigate\s*•\s*Enter select\s*•\s*Esc cancel/ },
    ],
    composer: {
      line: /^\s*[│┃]\s*❯\s?(.*?)\s*[│┃]?$/,
      placeholders: [/^Ask me anything/],
    },
  },
  title: {
    busy: [{ name: "spinner title", pattern: /^[\u2800-\u28ff]/ }],
    approval: [{ name: "action required title", pattern: /Action Required/ }],
  },
  progress: true,
  hooks: { kind: "none", events: COMMON_HOOK_EVENTS },
};
