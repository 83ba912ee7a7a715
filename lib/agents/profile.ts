/**
 * The shape of an agent profile: how to recognise an agent, read its screen,
 * start it, continue it, and wire its hooks. Profiles are data, one file per
 * agent in `profiles/`, so a changed agent UI means editing one file and its
 * captured-screen fixtures.
 *
 * @module
 */

import type { HookState } from "../protocol/agents.ts";

/** A named pattern, so `skiff explain` can say which rule fired. */
export interface Rule {
  /** A short name, such as `spinner line`. */
  name: string;
  /** The pattern, tested against one row of text. */
  pattern: RegExp;
}

/** How to find the agent's input box (composer) on screen. */
export interface ComposerRule {
  /** Matches the composer's first row; group 1 is the text in it. */
  line: RegExp;
  /**
   * Matches rows that continue a multi-line draft below the first one. Rows
   * stop at the first that does not match.
   */
  continuation?: RegExp;
  /** Texts that show in an empty composer, such as `Try "…"`. */
  placeholders?: RegExp[];
  /**
   * When set, the composer counts only with a frame row (such as `────`)
   * directly above it, which keeps transcript lines that look alike out.
   */
  frame?: RegExp;
  /**
   * For a box whose last row is a status line (opencode's `Build · model`):
   * the composer is the block of `line` rows directly above the lowest row
   * that matches this.
   */
  status?: RegExp;
}

/** What the screen says. Rules read only the live bottom rows. */
export interface ScreenRules {
  /** Rows that mean the agent works. */
  busy: Rule[];
  /** Rows that look busy but are not, such as a finished `43/43 agents done`. */
  notBusy?: RegExp[];
  /** Rows of an approval dialog or a question. Only rows below the composer (or all, when it is hidden) count. */
  approval: Rule[];
  /** The input box. */
  composer: ComposerRule;
}

/** What the window title (OSC 0/2) says. */
export interface TitleRules {
  /** Titles that mean the agent works. */
  busy?: Rule[];
  /** Titles that mean it waits for approval. */
  approval?: Rule[];
  /** Titles that mean it is idle. */
  idle?: Rule[];
}

/** How Skiff wires an agent's hooks when it starts the agent. */
export type HookKind = "claude-settings" | "codex-notify" | "opencode-plugin" | "none";

/**
 * A hook event whose meaning depends on its payload: the text at `field`
 * (a dotted path, such as `status.type`) is tested against each case in
 * order, and the first that matches gives the state.
 */
export interface HookCases {
  /** A dotted path into the payload, such as `notification_type`. */
  field: string;
  /** Patterns for the field's text, with the state each means. */
  cases: { pattern: RegExp; state: HookState }[];
  /** The state when no case matches (default `info`). */
  otherwise?: HookState;
}

/** What one hook event means: a state, or a state picked from its payload. */
export type HookMeaning = HookState | HookCases;

/** An agent's hooks: how Skiff wires them, and what each event means. */
export interface HookRules {
  /**
   * How Skiff wires hooks when it starts the agent. Wiring subscribes to the
   * events named in `events` (Codex's notify program has one event, `notify`).
   */
  kind: HookKind;
  /** What each hook event means. Events not listed mean `info`. */
  events: Readonly<Record<string, HookMeaning>>;
}

/** One agent. */
export interface AgentProfile {
  /** A short id, such as `claude`. */
  id: string;
  /** The name people know, such as `Claude Code`. */
  label: string;
  /** The program that starts it. */
  command: string;
  /** Extra arguments Skiff adds when it starts the agent. */
  startArgs?: string[];
  /**
   * The arguments that continue the last conversation in the folder, or
   * `null` when the agent has none.
   */
  continueArgs: string[] | null;
  /** How to recognise it in front of a pane. */
  match: {
    /** Kernel command names (`comm`) that are this agent. */
    comm?: string[];
    /** Basenames of argv words (for agents run by `node`, `bun` or `python`). */
    argv?: string[];
  };
  /** Milliseconds between the pasted text and Enter (at least 150). */
  enterDelayMs: number;
  /**
   * How long (ms) idle evidence must hold before a working agent counts as
   * idle, when nothing else says the turn ended (default {@linkcode SETTLE_MS}).
   */
  settleMs?: number;
  /** Screen rules. */
  screen: ScreenRules;
  /** Title rules. */
  title?: TitleRules;
  /** Whether OSC 9;4 progress reports work (state 1 or 3) and idle (state 0). */
  progress?: boolean;
  /** The `app` name of the agent's OSC 7501 status reports, when it sends them. */
  statusApp?: string;
  /** Its hooks. */
  hooks: HookRules;
  /** Whether this profile comes from `projects.toml`. */
  custom?: boolean;
}

/**
 * How long idle evidence must hold, by default, before a working agent
 * counts as idle: agents flicker between frames, and a frame drawn half-way
 * can look idle for a moment mid-turn.
 */
export const SETTLE_MS = 150;

/** The states a pane can be in. */
export type PaneState = "starting" | "working" | "idle" | "waiting" | "exited" | "shell";
