/**
 * The shapes an agent tracker takes in and gives out: what a hook said,
 * what it looks at on each update, the events it raises, its picture for
 * `skiff explain`, and its memory as plain data for an upgrade handoff.
 *
 * @module
 */

import type { ForegroundProcess } from "../platform/proc.ts";
import type { HookState } from "../protocol/agents.ts";
import type { ScreenView } from "../screen/view.ts";
import type { PaneState } from "./profiles/mod.ts";
import type { ScreenReading, Signal } from "./rules.ts";

/** What a hook said, as a state. */
export interface HookReport {
  /** The agent the hook came from. */
  agent: string;
  /** The hook's event name, such as `Stop`. */
  event: string;
  /** What it means. */
  state: HookState;
  /** When it arrived (ms since the epoch). */
  at: number;
  /**
   * Set by the tracker on a `working` or `waiting` report that came while no
   * turn ran, no prompt had gone in and the screen showed idle: a late or
   * stale hook, which must not open a turn the screen does not show.
   */
  ignored?: boolean;
}

/** One event the tracker raises. */
export interface TrackerEvent {
  /** `turn-start`, `turn-end`, `idle-no-turn`, `waiting`, `exit` or `agent-start`. */
  event: string;
  /** Extra fields. */
  fields: Record<string, unknown>;
}

/** What the tracker looks at on each update. */
export interface TrackerInput {
  /** Now, in ms since the epoch. */
  now: number;
  /** Reads the visible screen; only called when an agent is in front (it walks every cell). */
  view: () => ScreenView;
  /** The process in front of the terminal. */
  foreground?: ForegroundProcess;
  /** Whether the pane's process runs. */
  running: boolean;
  /** The agent Skiff started in the pane with its hooks wired in, if it did. */
  hooked?: string;
}

/** The tracker's full picture, for `skiff explain`. */
export interface TrackerSnapshot {
  /** The agent in front, or null. */
  agent: string | null;
  /** The state. */
  state: PaneState;
  /** Whether a turn is under way. */
  in_turn: boolean;
  /** Every signal of the last reading. */
  signals: Signal[];
  /** The composer. */
  composer: ScreenReading["composer"] | null;
  /** The last hook report. */
  hook: HookReport | null;
}

/**
 * The tracker's memory, as plain data: what a new skiffd needs after
 * `skiff daemon upgrade` to go on following a pane mid-turn (see
 * `AgentTracker.save`). Times are ms since the epoch.
 */
export interface TrackerState {
  /** The agent in front, by id, or null. */
  agent: string | null;
  /** The state. */
  state: PaneState;
  /** Whether a turn is under way. */
  in_turn: boolean;
  /** How many turns have started. */
  turns: number;
  /** The last hook report. */
  hook: HookReport | null;
  /** Since when the screen looked idle, if it does. */
  raw_idle_since: number | null;
  /** The last sign of work. */
  last_working_at: number;
  /** When a prompt went in that no turn followed yet. */
  submitted_at: number | null;
  /** When the agent appeared. */
  agent_since: number;
  /** Since when it has looked working without a confirmed turn. */
  working_since: number | null;
}
