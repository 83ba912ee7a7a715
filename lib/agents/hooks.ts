/**
 * What an agent's hook event means for its state. The meanings are data in
 * each profile (`hooks.events`); this module only reads them.
 *
 * @module
 */

import type { HookState } from "../protocol/agents.ts";
import { type AgentProfile, COMMON_HOOK_EVENTS, type HookMeaning } from "./profiles/mod.ts";

/** Reads a dotted path (`status.type`) from a payload, as text, or undefined. */
function fieldText(payload: Record<string, unknown>, path: string): string | undefined {
  let value: unknown = payload;
  for (const part of path.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : undefined;
}

/** What `meaning` says for one payload. */
export function meaningOf(meaning: HookMeaning, payload: Record<string, unknown>): HookState {
  if (typeof meaning === "string") return meaning;
  const text = fieldText(payload, meaning.field);
  if (text !== undefined) {
    for (const { pattern, state } of meaning.cases) if (pattern.test(text)) return state;
  }
  return meaning.otherwise ?? "info";
}

/**
 * Returns what a hook event means for the agent's state, from the profile's
 * `hooks.events`; an unknown agent reads the shared Claude Code and Gemini CLI
 * names. `payload` is the JSON the agent passed, for events whose meaning
 * depends on it.
 */
export function hookState(
  profile: AgentProfile | undefined,
  event: string,
  payload: Record<string, unknown>,
): HookState {
  const events = profile?.hooks.events ?? COMMON_HOOK_EVENTS;
  const meaning = Object.hasOwn(events, event) ? events[event] : undefined;
  return meaning === undefined ? "info" : meaningOf(meaning, payload);
}
