/**
 * The shape of an agent profile: how to recognise an agent, read its screen,
 * start it, continue it, and wire its hooks. Profiles are data, one file per
 * agent in `profiles/`, so a changed agent UI means editing one file and its
 * captured-screen fixtures.
 *
 * @module
 */

import type { HookState } from "../../protocol/agents.ts";

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
  /**
   * Rows the agent shows while it is still starting, such as Codex's `state
   * db backfill is running at …` in its input box: the agent reads
   * `starting` while one shows and no prompt went in, however long it takes.
   */
  starting?: Rule[];
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

/**
 * How Skiff wires an agent's hooks when it starts the agent: Claude Code's
 * `--settings` file, Codex's `notify` program, an opencode plugin, or a
 * system settings layer that Gemini CLI (`gemini-system-settings`) or Qwen
 * Code (`qwen-system-settings`) reads through an environment variable.
 */
export type HookKind =
  | "claude-settings"
  | "codex-notify"
  | "opencode-plugin"
  | "gemini-system-settings"
  | "qwen-system-settings"
  | "none";

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

/**
 * Where an agent keeps a conversation's record. Paths may hold `{id}` (the
 * conversation's id), `{id8}` (its first 8 characters), `~` and
 * `${VAR}` / `${VAR:-default}` (read from the pane's environment), and `*`
 * for one whole part of a path.
 */
export interface RecordRule {
  /** A hook payload field (dotted path) that names the record's file. */
  field?: string;
  /** Files to look for. */
  paths?: string[];
  /** A SQLite file and a query, with one `?` for the id, that returns a row when the record exists. */
  sqlite?: { path: string; query: string };
  /**
   * A field of the file's first line (JSON) that must hold the id: a file without it is one the
   * agent cannot resume, though it is there.
   */
  header?: string;
}

/** How Skiff brings an agent's own conversation back after a restore. */
export interface ResumeRule {
  /** The arguments that resume conversation `{id}` (they follow the start arguments). */
  args: string[];
  /**
   * The arguments that start a new conversation under an id Skiff chose
   * (`{id}`), for agents that take one: the id is known from the start,
   * even when no hook reaches Skiff.
   */
  newArgs?: string[];
  /** Where hook payloads name the agent's current conversation. */
  id: {
    /** The payload field (dotted path) that holds the id. */
    field: string;
    /** The events that name it; by default every event but `SessionEnd` (which names the old one). */
    events?: string[];
    /** A payload with any of these fields is about another conversation (a subagent's). */
    unless?: string[];
    /** The payload field with the conversation's folder (default `cwd`). */
    cwd?: string;
    /**
     * Take an id only once its record exists: Codex tells about its
     * title-generation threads too, which keep no record.
     */
    needsRecord?: boolean;
  };
  /** Where the record is kept: a resume is typed only when it is there. */
  record: RecordRule;
}

/**
 * A command the agent runs out of sight: submitted from its input box, it
 * runs under an empty input box, and what is typed meanwhile is lost. Qwen
 * Code's `/clear` clears its screen at once, then runs its SessionEnd hook,
 * resets its chat and runs its SessionStart hook.
 */
export interface QuietCommand {
  /** A short name, for `skiff explain`. */
  name: string;
  /** Matches the input box's text as it was submitted. */
  pattern: RegExp;
  /** The hook event (of Skiff's own hooks) that says the command is over. */
  until: string;
  /** The longest it holds, for an agent whose hooks are not wired (default 5000). */
  maxMs?: number;
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
  /**
   * For an agent with a `statusApp`: how long (ms) a report of idle at its
   * start must hold, with no report of work after it, before the start
   * counts as done. Codex reports idle as its input box is ready, then works
   * on its start (its MCP servers) a moment later. For an agent with a
   * `startHook`: how long its screen must read idle after that hook's event.
   * Default 0: its first report of idle (or the hook) ends the start.
   */
  startSettleMs?: number;
  /**
   * For an agent Skiff starts with its hooks wired in: the hook event that
   * ends its start. Gemini CLI draws its input box, then runs its
   * SessionStart hook (shown as `Executing Hook: skiff SessionStart`, and
   * working meanwhile): it is `starting` until that hook comes, and busy
   * signs with no prompt soon after it are still its start.
   */
  startHook?: string;
  /**
   * Commands it runs out of sight: from their Enter the agent reads
   * `working` until the hook that ends them comes.
   */
  quietCommands?: QuietCommand[];
  /** Its hooks. */
  hooks: HookRules;
  /** How it resumes a conversation by its id after a restore; none when it cannot. */
  resume?: ResumeRule;
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
