/**
 * `skiff host check`: is a host reachable, what does it run, how far is it.
 * The round trip is timed over the link itself, on one connection to the
 * host's skiffd, so it measures the network and the two skiffds' sockets,
 * not the start of a program on either side.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { HostState, RemoteInfo } from "../protocol/hosts.ts";
import { VERSION } from "../version.ts";
import { median } from "./stats.ts";
import { skewLine } from "./remote.ts";
import { connectHost, linkTo } from "./resolve.ts";

/** How many round trips `host check` times. */
export const CHECK_ROUND_TRIPS = 10;

/** What {@linkcode checkHost} found. */
export interface HostCheck {
  /** The host's name. */
  host: string;
  /** Its SSH destination. */
  ssh: string;
  /** Whether its skiffd answered through the link. */
  reachable: boolean;
  /** Where the link stands. */
  state: HostState;
  /** Why it is not reachable, else null. */
  why: string | null;
  /** This skiff's version. */
  local_version: string;
  /** What the host's Skiff said of itself, when reachable. */
  remote: RemoteInfo | null;
  /** The median round trip of a request over the link, in ms. */
  rtt_ms: number | null;
  /** Each round trip timed, in ms. */
  rtt_samples: number[];
  /** How many panes the host's skiffd has. */
  panes: number | null;
  /** The one line about versions that differ, else null. */
  skew: string | null;
}

/** The result and the error to report, when the check failed. */
export interface CheckOutcome {
  /** What was found. */
  check: HostCheck;
  /** Why the host cannot be used, for the exit code. */
  error?: SkiffError;
}

/** Links to `host` (making the link when there is none) and checks it. */
export async function checkHost(host: string): Promise<CheckOutcome> {
  const { link } = await linkTo(host, { waitMs: 60_000 });
  const check: HostCheck = {
    host,
    ssh: link.ssh,
    reachable: false,
    state: link.state,
    why: link.why,
    local_version: VERSION,
    remote: link.remote,
    rtt_ms: null,
    rtt_samples: [],
    panes: null,
    skew: null,
  };
  let connection;
  try {
    connection = await connectHost(host, { waitMs: 0 });
  } catch (error) {
    if (!(error instanceof SkiffError)) throw error;
    check.why = check.why ?? error.message;
    return { check, error };
  }
  try {
    const { client } = connection;
    for (let i = 0; i < CHECK_ROUND_TRIPS; i++) {
      const start = performance.now();
      const status = await client.call("daemon.status");
      check.rtt_samples.push(Number((performance.now() - start).toFixed(2)));
      check.panes = status.panes;
    }
    check.rtt_ms = Number(median(check.rtt_samples).toFixed(2));
    check.reachable = true;
    check.state = "up";
    check.why = null;
    check.remote = connection.link.remote;
    check.skew = check.remote ? skewLine(host, check.remote) ?? null : null;
    return { check };
  } finally {
    connection.client.close();
  }
}
