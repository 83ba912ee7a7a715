/**
 * What an agent profile is (`profile.ts`: how to recognise an agent, its
 * screen rules, hooks, start and resume), and the built-in profiles, one
 * file each. The rest of `lib/agents` reads profiles; nothing here reads
 * the rest.
 *
 * @module
 */

import type { AgentProfile } from "./profile.ts";

export * from "./profile.ts";
export { COMMON_HOOK_EVENTS } from "./hook_events.ts";
import { claude } from "./claude.ts";
import { codex } from "./codex.ts";
import { gemini } from "./gemini.ts";
import { grok } from "./grok.ts";
import { hermes } from "./hermes.ts";
import { opencode } from "./opencode.ts";
import { qwen } from "./qwen.ts";

/** Every built-in profile. */
export const BUILT_IN: readonly AgentProfile[] = [
  claude,
  codex,
  gemini,
  opencode,
  grok,
  hermes,
  qwen,
];
