/**
 * Hermes Agent (Nous Research). Titles carry the state: `⏳` working, `⚠`
 * approval, `✓` idle. Its screens show `ctrl+c to interrupt` while busy and
 * allow / deny menus for dangerous commands.
 *
 * @module
 */

import type { AgentProfile } from "./profile.ts";
import { COMMON_HOOK_EVENTS } from "./hook_events.ts";

/** The Hermes profile. */
export const hermes: AgentProfile = {
  id: "hermes",
  label: "Hermes",
  command: "hermes",
  continueArgs: ["--continue"],
  match: { comm: ["hermes"], argv: ["hermes"] },
  enterDelayMs: 200,
  screen: {
    busy: [
      {
        name: "interrupt hint",
        pattern: /\bctrl\+c to interrupt\b|\bmsg=interrupt\b|\bctrl\+c cancel\b/i,
      },
    ],
    approval: [
      { name: "allow menu", pattern: /\ballow once\b.*\bdeny\b|\b1\. allow\b/i },
      { name: "clarify", pattern: /hermes needs your|type your answer|other \(type/i },
      { name: "password", pattern: /sudo password/i },
    ],
    composer: {
      line: /^\s*(?:❯|>)(?:\s|\u00a0)?(.*)$/,
    },
  },
  title: {
    busy: [{ name: "busy title", pattern: /^⏳/ }],
    approval: [{ name: "approval title", pattern: /^⚠/ }],
    idle: [{ name: "idle title", pattern: /^✓/ }],
  },
  hooks: { kind: "none", events: COMMON_HOOK_EVENTS },
  // Skiff cannot wire Hermes's hooks without editing its config; hooks a person points at
  // `skiff hook hermes EVENT` carry `session_id`. Sessions live in its state database.
  resume: {
    args: ["--resume", "{id}"],
    id: { field: "session_id" },
    record: {
      sqlite: {
        path: "${HERMES_HOME:-~/.hermes}/state.db",
        query: "SELECT 1 FROM sessions WHERE id = ?",
      },
    },
  },
};
