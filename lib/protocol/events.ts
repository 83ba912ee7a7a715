/**
 * Every event skiffd pushes to subscribers, with its fields. A subscriber
 * gets one JSON object per line; `event` names it.
 *
 * @module
 */

import type { PaneState, UnreadReason } from "./panes.ts";
import type { DiffStat, PaneWorktree } from "./worktrees.ts";
import type { WatcherHealth } from "./watch.ts";

/** The fields every event has. */
export interface EventBase {
  /** When it happened (ISO 8601). */
  time: string;
  /** The daemon run that sent it: a new one after each start of skiffd. */
  run: string;
  /** Its number within the run, from 1, with no gaps. */
  seq: number;
}

/** The fields of events that set a pane's unread flag. */
export interface UnreadFields {
  /** Every reason the pane is unread now, oldest first. */
  unread_reasons: UnreadReason[];
}

/** The fields of every pane event. */
export interface PaneEventBase extends EventBase {
  /** The pane's id. */
  pane: string;
  /** The pane's name. */
  name: string;
  /** The pane's process generation. */
  generation: number;
}

/** The fields of events about the agent in a pane. */
export interface AgentEventBase extends PaneEventBase {
  /** The known agent in front, or null. */
  agent: string | null;
}

/** A pane was made. */
export interface PaneCreatedEvent extends PaneEventBase {
  /** The event's name. */
  event: "pane-created";
  /** Its session's id. */
  session: string;
  /** Its project, or null. */
  project: string | null;
  /** Its command. */
  command: string[];
}

/** A pane came back after a restart, as a new process under its old id. */
export interface PaneRestoredEvent extends PaneEventBase {
  /** The event's name. */
  event: "pane-restored";
}

/** A pane got a new name. */
export interface PaneRenamedEvent extends PaneEventBase {
  /** The event's name. */
  event: "pane-renamed";
  /** Its name before. */
  old_name: string;
}

/**
 * A pane's worktree was counted again (after a turn end, a landing, a diff,
 * or a list's ask) and what a listing shows of it changed: its branch, the
 * commits ahead and behind, merged, landed, or its changes.
 */
export interface WorktreeEvent extends PaneEventBase {
  /** The event's name. */
  event: "worktree";
  /** The pane's worktree, as `pane.get` now describes it. */
  worktree: PaneWorktree;
  /** Its changes against the base, as counted now; null when it could not be counted. */
  diff: DiffStat | null;
}

/** A pane changed size. */
export interface ResizedEvent extends PaneEventBase {
  /** The event's name. */
  event: "resized";
  /** Columns. */
  cols: number;
  /** Rows. */
  rows: number;
}

/** A pane's program set its window title. */
export interface TitleEvent extends PaneEventBase {
  /** The event's name. */
  event: "title";
  /** The new title. */
  title: string;
}

/** A session's mark was set or cleared. */
export interface SessionMarkedEvent extends EventBase {
  /** The event's name. */
  event: "session-marked";
  /** The session's id. */
  session: string;
  /** The session's name. */
  session_name: string;
  /** The mark's key. */
  key: string;
  /** Its new value, or null when cleared. */
  value: string | null;
}

/** A known agent came to the front of a pane. */
export interface AgentStartEvent extends AgentEventBase {
  /** The event's name. */
  event: "agent-start";
}

/**
 * A pane's state changed (`working`, `idle`, `waiting`, …), whatever made it
 * change: the app's sidebar follows it without asking again.
 */
export interface StateEvent extends AgentEventBase {
  /** The event's name. */
  event: "state";
  /** The state now. */
  state: PaneState;
}

/** An agent started a turn. */
export interface TurnStartEvent extends AgentEventBase {
  /** The event's name. */
  event: "turn-start";
}

/** An agent ended a turn, went idle after a prompt with no turn, or began to wait for approval. */
export interface TurnEvent extends AgentEventBase, UnreadFields {
  /** The event's name. */
  event: "turn-end" | "idle-no-turn" | "waiting";
}

/** A pane rang the bell. */
export interface BellEvent extends AgentEventBase, UnreadFields {
  /** The event's name. */
  event: "bell";
}

/** A pane's process exited, or the agent in front of it did. */
export interface ExitEvent extends AgentEventBase, UnreadFields {
  /** The event's name. */
  event: "exit";
  /** `process` when the pane's process ended, `agent` when only the agent left the front. */
  what: "process" | "agent";
  /** The exit code, for a process exit. */
  exit_code?: number | null;
  /** The ending signal, for a process exit by one. */
  signal?: number | null;
}

/** A person typed into a pane (at most one a second per pane). */
export interface TypedEvent extends PaneEventBase {
  /** The event's name. */
  event: "typed";
}

/** A pane was killed and removed. */
export interface GoneEvent extends PaneEventBase {
  /** The event's name. */
  event: "gone";
}

/** A pane was marked seen. */
export interface SeenEvent extends PaneEventBase {
  /** The event's name. */
  event: "seen";
  /** The reasons it was unread for. */
  unread_reasons: UnreadReason[];
}

/** A session ended: its last pane was killed, or every process in it exited. */
export interface SessionEndedEvent extends EventBase {
  /** The event's name. */
  event: "session-ended";
  /** The session's id. */
  session: string;
  /** The session's name. */
  session_name: string;
  /** Its marks, so a client can tell which session it was. */
  marks: Record<string, string>;
  /** `killed` when its last pane was removed, `exited` when its last process ended. */
  why: "killed" | "exited";
}

/**
 * Sent to a subscriber that asked for the events after a place in the
 * stream when some of them are not known any more: skiffd restarted, or the
 * backlog no longer holds them. The subscriber should list panes again
 * rather than guess.
 */
export interface ResyncEvent extends EventBase {
  /** The event's name. */
  event: "resync";
  /** `new-run` when skiffd started again since, `missed` when the backlog lost events. */
  reason: "new-run" | "missed";
}

/** The watcher started, stopped, or reported on its last line. */
export interface WatcherEvent extends EventBase, WatcherHealth {
  /** The event's name. */
  event: "watcher";
}

/**
 * A link to another host came up, or could not be kept or made: sent when
 * the host becomes unreachable (or refused) and when it is up again, never
 * for each retry in between.
 */
export interface HostEvent extends EventBase {
  /** The event's name. */
  event: "host";
  /** The host's name in projects.toml. */
  host: string;
  /** `up`, `unreachable` or `refused`. */
  state: "up" | "unreachable" | "refused";
  /** Why it is not up (one line), else null. */
  why: string | null;
}

/** skiffd re-read its config. */
export interface DaemonReloadedEvent extends EventBase {
  /** The event's name. */
  event: "daemon-reloaded";
}

/**
 * A new skiffd took over in place (`skiff daemon upgrade`, `skiff daemon
 * restart --keep-panes`): every pane's process runs on, and the event run
 * goes on with its numbers.
 */
export interface DaemonUpgradedEvent extends EventBase {
  /** The event's name. */
  event: "daemon-upgraded";
  /** The Skiff version before. */
  from_version: string;
  /** The Skiff version now. */
  version: string;
  /** skiffd's pid, the same as before. */
  pid: number;
  /** How many panes it took over. */
  panes: number;
}

/** skiffd is stopping. */
export interface DaemonStoppingEvent extends EventBase {
  /** The event's name. */
  event: "daemon-stopping";
  /** Why. */
  reason: string;
  /**
   * Whether a skiffd is expected back on this socket at once: a restart, or
   * another skiffd took over the socket. False when it was stopped for good
   * (`skiff daemon stop`, a signal): followers need not wait for it.
   */
  returning: boolean;
}

/** Any event. */
export type Event =
  | PaneCreatedEvent
  | PaneRestoredEvent
  | PaneRenamedEvent
  | WorktreeEvent
  | ResizedEvent
  | TitleEvent
  | SessionMarkedEvent
  | AgentStartEvent
  | StateEvent
  | TurnStartEvent
  | TurnEvent
  | BellEvent
  | ExitEvent
  | TypedEvent
  | GoneEvent
  | SeenEvent
  | SessionEndedEvent
  | WatcherEvent
  | HostEvent
  | DaemonReloadedEvent
  | DaemonUpgradedEvent
  | DaemonStoppingEvent
  | ResyncEvent;

/** An event's name. */
export type EventName = Event["event"];

/** The event named `N`. */
export type EventOf<N extends EventName> = Extract<Event, { event: N }>;

/** The fields an emitter gives for event `N`: all but the name, the time and the numbering. */
export type EventFields<N extends EventName> = Omit<EventOf<N>, "event" | "time" | "run" | "seq">;

/**
 * Every event name, in the order docs/events.md lists them. The type check
 * below keeps it complete.
 */
export const EVENT_NAMES = [
  "pane-created",
  "pane-restored",
  "pane-renamed",
  "worktree",
  "resized",
  "title",
  "session-marked",
  "agent-start",
  "state",
  "turn-start",
  "turn-end",
  "idle-no-turn",
  "waiting",
  "bell",
  "typed",
  "exit",
  "gone",
  "seen",
  "session-ended",
  "watcher",
  "host",
  "daemon-reloaded",
  "daemon-upgraded",
  "daemon-stopping",
  "resync",
] as const satisfies readonly EventName[];

// Fails to compile when an event of the union is missing from EVENT_NAMES.
const _complete: Exclude<EventName, typeof EVENT_NAMES[number]> extends never ? true : never = true;
void _complete;
