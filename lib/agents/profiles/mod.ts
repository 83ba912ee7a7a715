/**
 * The built-in agent profiles, one file each.
 *
 * @module
 */

import type { AgentProfile } from "../profile.ts";
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
