/**
 * The hosts methods of the protocol: the local skiffd holds one SSH link per
 * host (`[hosts.NAME]` in projects.toml) through its hosts service, and
 * commands ask it for a link before they talk to that host's skiffd through
 * the link's local socket. skiffd answers them through the service it was
 * started with (`lib/hosts`); a skiffd started without one says so.
 *
 * @module
 */

import type { PaneInfo } from "./panes.ts";

/** The pattern a host name must match: what `HOST:PANE` can hold before its colon. */
export const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * Where a link stands:
 *
 * - `idle`: nothing uses the host, so no link is held;
 * - `connecting`: the link is being made (or made again after it dropped);
 * - `up`: the link answers: its socket reaches the host's skiffd;
 * - `unreachable`: the link could not be made; it is tried again with backoff
 *   while something uses the host;
 * - `refused`: the host answered but cannot be used: its Skiff is too old or
 *   speaks another protocol, or its `skiff` program is missing. Tried again
 *   only when asked.
 */
export type HostState = "idle" | "connecting" | "up" | "unreachable" | "refused";

/** What a host's own Skiff says of itself when a link is made (`skiff host remote`). */
export interface RemoteInfo {
  /** The version of the host's `skiff` program. */
  version: string;
  /** The protocol version of the host's skiffd. */
  protocol: number;
  /** The version of the host's skiffd (it may run an older program than its `skiff`). */
  daemon_version: string;
  /** The host's skiffd process id. */
  pid: number;
  /** The socket of the host's skiffd, on the host. */
  socket: string;
  /** Whether the link started the host's skiffd. */
  started: boolean;
  /** The agents the host knows, and where each is installed there (null: not installed). */
  agents: { id: string; label: string; installed: string | null }[];
}

/** A link, as the hosts service describes it. */
export interface HostLink {
  /** The host's name in projects.toml. */
  host: string;
  /** Its SSH destination. */
  ssh: string;
  /** Where the link stands. */
  state: HostState;
  /** Why it is not up (one line), else null. */
  why: string | null;
  /** The exit name a command reports for `why`: `UNREACHABLE`, `PROTOCOL`, `NOT_FOUND`… */
  exit: string | null;
  /** Since when it is in this state (ISO 8601). */
  since: string;
  /** The local socket that reaches the host's skiffd while the link is up, else null. */
  socket: string | null;
  /** What the host's Skiff said of itself at the last link, else null. */
  remote: RemoteInfo | null;
  /** When the link was last up (now, while it is), or null when it never was (ISO 8601). */
  last_up: string | null;
  /** When the link is tried next after a failed try (ISO 8601), or null when no try waits. */
  next_try: string | null;
}

/**
 * One host in `hosts.list`. When panes were asked for, a link still being
 * made when the time ran out is `unreachable` (with why), as is one whose
 * skiffd did not list its panes in time.
 */
export interface HostListing extends HostLink {
  /** Its panes, when they were asked for and the link answered in time; else null. */
  panes: PaneInfo[] | null;
}

/** The params of `hosts.link`. */
export interface HostLinkParams {
  /** The host's name. */
  host: string;
  /** How long to wait for the link to be up (default 20 000 ms; 0: answer at once). */
  wait_ms?: number;
  /** Try now, even when the last try failed a moment ago (a person asked). */
  retry?: boolean;
  /**
   * Keep the link while this connection to skiffd stays open (an attach, the
   * watcher): without it, a link is kept for a while after its last use.
   */
  hold?: boolean;
}

/** The params of `hosts.list`. */
export interface HostListParams {
  /** Only these hosts (default: every host of projects.toml). */
  hosts?: string[];
  /** Make links to hosts that have none (`skiff ls --all-hosts`); default false. */
  connect?: boolean;
  /** List each linked host's panes; default false. */
  panes?: boolean;
  /** The time the whole answer may take, at most (default 800 ms). */
  wait_ms?: number;
}

/** The hosts methods: name → params and result. */
export interface HostMethods {
  /** A link to one host: made when there is none, waited for up to `wait_ms`. */
  "hosts.link": { params: HostLinkParams; result: HostLink };
  /** Every host of projects.toml with its link, and its panes when asked. */
  "hosts.list": { params: HostListParams; result: { hosts: HostListing[] } };
}
