/**
 * The daemon methods of the protocol: the greeting, status, stop, reload and
 * the event subscription.
 *
 * @module
 */

import type { WatcherHealth } from "./watch.ts";

/** A place in the event stream: a daemon run and an event number in it. */
export interface EventCursor {
  /** The daemon run. */
  run: string;
  /** The number of the last event seen (0: none). */
  seq: number;
}

/** What `hello` answers. */
export interface HelloResult {
  /** The protocol version skiffd speaks. */
  protocol: number;
  /** skiffd's Skiff version. */
  version: string;
  /** skiffd's process id. */
  pid: number;
  /** Set while this skiffd stops: it is about to exit, and serves nothing new. */
  stopping?: boolean;
  /** To an upgrade hello: how the last upgrade of this skiffd went, or null. */
  upgrade?: UpgradeOutcome | null;
}

/**
 * How an upgrade went (`skiff daemon upgrade`). The client learns it from
 * the hello of whichever skiffd answers after the exec: the new one, or the
 * old one run again when the new one failed.
 */
export interface UpgradeOutcome {
  /** The upgrade's id, chosen by the client. */
  id: string;
  /** Whether the new program took over. */
  ok: boolean;
  /** The Skiff version before. */
  from: string;
  /** The Skiff version that runs now. */
  version: string;
  /** Why it failed (one line), when it did. */
  error?: string;
  /** The step that failed, when one did. */
  step?: string;
  /** How many panes were handed over, those whose process had exited included. */
  panes: number;
  /**
   * How many of them had a process running, as `daemon.status` counts
   * `running_panes` (absent from the outcome of an older skiffd).
   */
  running_panes?: number;
  /**
   * How long it took (ms): `check` (the new program's check), `freeze` (how
   * long the busy panes' output stood still: those a person was attached to
   * or that printed in the last seconds, taken over first), `freeze_all`
   * (until the last pane read again), and the steps between (`quiesce`,
   * `hold`, `save`, `start`, `read`, `adopt`, `listen`); `cpu_hold` and
   * `cpu_takeover` are the CPU time of the old program's freeze and of the
   * new program's start, which load does not change.
   */
  ms: Record<string, number>;
  /**
   * Bytes of output the old skiffd had read and not parsed when it froze,
   * handed over as they were for the new one to parse (absent from an older
   * skiffd, and when it parsed them all before the freeze).
   */
  unparsed_bytes?: number;
  /**
   * Busy panes whose older history lines were handed over apart, to be
   * built when first read (absent from an older skiffd).
   */
  aside_panes?: number;
  /** When it ended (ISO 8601). */
  at: string;
}

/** What `daemon.status` answers. */
export interface DaemonStatus {
  /** skiffd's process id. */
  pid: number;
  /** Its Skiff version. */
  version: string;
  /** Its protocol version. */
  protocol: number;
  /** Its socket. */
  socket: string;
  /** When it started (ISO 8601). */
  started: string;
  /** How long it has run. */
  uptime_ms: number;
  /** How many panes it has. */
  panes: number;
  /** How many of them run. */
  running_panes: number;
  /** How many sessions it has. */
  sessions: number;
  /** How many clients are connected. */
  clients: number;
  /** The config file it reads. */
  config: string;
  /** The workspace file it keeps. */
  workspace: string;
  /** Why the last save of the workspace failed (a full disk), or null when it is saved. */
  workspace_error: string | null;
  /** Its log. */
  log: string;
  /** The watcher's health. */
  watcher: WatcherHealth;
  /** How the last upgrade of this skiffd went, or null when there was none. */
  upgrade?: UpgradeOutcome | null;
  /**
   * The folder of the panes' saved screens, and what saving them in the
   * background has cost since skiffd started.
   */
  screens?: {
    dir: string;
    saves: number;
    total_ms: number;
    max_ms: number;
    bytes: number;
    failures: number;
    /** Screens asleep now: quiet and unattached, held as a few KB of state until used. */
    asleep?: number;
    /** Times a screen went to sleep since skiffd started. */
    slept?: number;
    /** Times a screen woke (on output, a capture, an attach) of the panes there are now. */
    wakes?: number;
  };
}

/** The daemon methods: name → params and result. */
export interface DaemonMethods {
  /**
   * The first request on every connection: agree on the protocol version.
   * With `upgrade`, a client of another protocol is greeted too, and may
   * call only `daemon.upgrade`.
   */
  "hello": {
    params: { protocol: number; client?: string; upgrade?: boolean };
    result: HelloResult;
  };
  /**
   * Replaces skiffd's program in place with `program` (default: its own),
   * handing every pane over (`skiff daemon upgrade`). Answers only when it
   * fails before the exec (nothing changed); otherwise the connection closes
   * at the exec, and the outcome comes with the hello of the skiffd that
   * answers next. Its params never change, so it works across protocols.
   */
  "daemon.upgrade": {
    params: { id: string; program?: string[]; version?: string; fault?: string };
    result: UpgradeOutcome;
  };
  /** Facts about the running daemon. */
  "daemon.status": { params: Record<string, never>; result: DaemonStatus };
  /**
   * Stops the daemon after answering. With `restart`, a new skiffd follows at
   * once (`skiff daemon restart`), so followers such as the watcher wait for it.
   */
  "daemon.stop": { params: { restart?: boolean }; result: { stopping: true } };
  /** Re-reads the config; refuses a broken one and keeps the old. */
  "daemon.reload": {
    params: Record<string, never>;
    result: { reloaded: true; config: string; projects: number };
  };
  /**
   * Turns the connection into a stream of events (see `events.ts`). With
   * `after`, the events of this run after that one come first; a `resync`
   * event says when some are no longer known.
   */
  "events.subscribe": {
    params: { after?: EventCursor };
    result: { subscribed: true; run: string; seq: number };
  };
}
