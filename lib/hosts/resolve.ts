/**
 * Addressing: `HOST:PANE` names a pane on another host, and one resolver
 * turns any pane ref into the connection to talk to and the pane's ref on
 * that host. Every command that takes a pane goes through it, so a command
 * knows nothing of hosts: for a local ref it is the local skiffd, for
 * `gpu1:reviewer` it is gpu1's skiffd through the link the local skiffd
 * holds, and the same request goes over either.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { ConnectionClosed, DaemonClient, markLinkSocket } from "../client/client.ts";
import { connectDaemon, type ConnectOptions } from "../client/connect.ts";
import { noteHostSkew } from "../client/skew.ts";
import { HOST_NAME, type HostLink } from "../protocol/hosts.ts";
import { importLater } from "../platform/later.ts";

/** A pane ref split into its host (null: this machine) and the ref on that host. */
export interface PaneAddress {
  /** The host's name, or null for a local pane. */
  host: string | null;
  /** The pane's id, name or `project/name` on that host. */
  pane: string;
}

/**
 * Splits `HOST:PANE`. Pane names hold no colon, so the first colon ends the
 * host; a ref with none is local. An empty or malformed host is refused
 * (exit `USAGE`).
 */
export function parsePaneRef(ref: string): PaneAddress {
  const colon = ref.indexOf(":");
  if (colon === -1) return { host: null, pane: ref };
  const host = ref.slice(0, colon);
  const pane = ref.slice(colon + 1);
  if (!HOST_NAME.test(host) || pane === "") {
    throw new SkiffError(
      `Bad pane '${ref}': use PANE, or HOST:PANE for a pane on another host`,
      { exit: "USAGE" },
    );
  }
  return { host, pane };
}

/** `HOST:PANE`, or the pane alone for a local one. */
export function paneRefText(host: string | null, pane: string): string {
  return host === null ? pane : `${host}:${pane}`;
}

/**
 * A pane as a confirmation names it: by name, on the host the person typed
 * (`gpu1:reviewer (p2)` for `gpu1:p2`), with its id on that host.
 */
export function paneLabel(ref: string, pane: { name: string; pane: string }): string {
  return `${paneRefText(parsePaneRef(ref).host, pane.name)} (${pane.pane})`;
}

/** Options for {@linkcode linkTo} and {@linkcode connectHost}. */
export interface LinkOptions {
  /** How long to wait for the link (default: the service's, 20 s). */
  waitMs?: number;
  /**
   * Keep the link while the returned `holder` stays open (an attach, the
   * watcher); the caller closes it.
   */
  hold?: boolean;
  /** Start the local skiffd when none runs (default true). */
  start?: boolean;
  /**
   * The ref names a pane (default true): when no local skiffd runs and its
   * saved workspace has no such pane, the local ref is refused rather than
   * skiffd started. False for a ref that may name a session (`skiff mark`).
   */
  pane?: boolean;
  /**
   * How to reach skiffd (see {@linkcode SkiffdAccess}): by default a new
   * connection for each call, closed after it.
   */
  access?: SkiffdAccess;
  /**
   * The connection to the local skiffd to ask for the link on (and, with
   * `hold`, to hold it with, for as long as it stays open): its owner's, left
   * open. By default one is made for the asking.
   */
  via?: DaemonClient;
}

/** A connection lent for one piece of work: `release` it when done. */
export interface SkiffdLease {
  /** The connection to the skiffd asked for. */
  client: DaemonClient;
  /** Gives the connection back (a kept one stays open; a one-off one closes). */
  release(): void;
}

/**
 * Where connections to skiffd come from. A command makes one per call and
 * closes it; a long-lived program (`skiff mcp`) keeps one to the local
 * skiffd, and one to each host it touched, for its whole life. `host` is
 * null for the local skiffd.
 */
export interface SkiffdAccess {
  /** A connection to `host`'s skiffd (null: this machine's). */
  open(host: string | null, options: LinkOptions): Promise<SkiffdLease>;
}

/** The error for a link that is not up: its own words, with the exit it names. */
export function linkError(link: HostLink): SkiffError {
  const exit = (link.exit ?? "UNREACHABLE") as SkiffError["exit"];
  const why = link.why ?? "no answer";
  const message = link.state === "refused" || exit !== "UNREACHABLE"
    ? why
    : `Host ${link.host} is unreachable: ${why}`;
  return new SkiffError(message, {
    exit,
    details: { host: link.host, state: link.state, why: link.why },
  });
}

/**
 * Asks the local skiffd (starting it unless `start` is false) for the link
 * to `host`, and waits for it. Returns the link, and the connection that
 * holds it when `hold` was asked (none with `via`: that one holds it, and
 * stays its owner's).
 */
export async function linkTo(
  host: string,
  options: LinkOptions = {},
): Promise<{ link: HostLink; holder?: DaemonClient }> {
  const via = options.via;
  const local = via ?? await connectDaemon({ start: options.start } satisfies ConnectOptions);
  try {
    const link = await local.call("hosts.link", {
      host,
      retry: true,
      ...(options.waitMs !== undefined ? { wait_ms: options.waitMs } : {}),
      ...(options.hold ? { hold: true } : {}),
    });
    if (via) return { link };
    if (options.hold) return { link, holder: local };
    local.close();
    return { link };
  } catch (error) {
    if (!via) local.close();
    throw error;
  }
}

/** A connection to a host's skiffd through its link. */
export interface HostConnection {
  /** The connection. */
  client: DaemonClient;
  /** The link it goes through. */
  link: HostLink;
  /** The local connection that holds the link, when `hold` was asked: close it with `client`. */
  holder?: DaemonClient;
}

/**
 * Connects to `host`'s skiffd through the link the local skiffd holds.
 * Throws exit `UNREACHABLE` (with why) when the link is not up, `PROTOCOL`
 * when the host's Skiff cannot be used, `NOT_FOUND` for an unknown host.
 */
export async function connectHost(
  host: string,
  options: LinkOptions = {},
): Promise<HostConnection> {
  const { link, holder } = await linkTo(host, options);
  try {
    if (link.state !== "up" || link.socket === null) throw linkError(link);
    markLinkSocket(link.socket, host);
    let client: DaemonClient;
    try {
      client = await DaemonClient.connect(link.socket, { host });
    } catch (error) {
      if (
        error instanceof ConnectionClosed || error instanceof Deno.errors.NotFound ||
        error instanceof Deno.errors.ConnectionRefused
      ) {
        throw new SkiffError(`Host ${host} is unreachable: the link went as it was used`, {
          exit: "UNREACHABLE",
          details: { host },
        });
      }
      throw error;
    }
    // Loaded for another host only: a local command never needs it.
    const skew = link.remote
      ? (await importLater<typeof import("./remote.ts")>("lib/hosts/remote.ts"))
        .skewLine(host, link.remote)
      : undefined;
    if (skew) noteHostSkew(`skiff: ${skew}`);
    return { client, link, holder };
  } catch (error) {
    holder?.close();
    throw error;
  }
}

/** The connection for a pane ref, and the ref on that host. */
export interface PaneConnection extends PaneAddress {
  /** The connection to the pane's skiffd. */
  client: DaemonClient;
  /** Closes the connection (and a holder, if any). */
  close(): void;
}

/**
 * Connects to the skiffd that has pane `ref` (`PANE` or `HOST:PANE`): the
 * local one (started when needed, unless `start` is false) or the host's,
 * through its link.
 */
export async function connectPane(
  ref: string,
  options: LinkOptions = {},
): Promise<PaneConnection> {
  const address = parsePaneRef(ref);
  if (options.access) {
    const lease = await options.access.open(address.host, options);
    return { ...address, client: lease.client, close: () => lease.release() };
  }
  if (address.host === null) {
    const client = await connectDaemon({
      start: options.start,
      ...(options.pane === false ? {} : { pane: address.pane }),
    });
    return { ...address, client, close: () => client.close() };
  }
  const { client, holder } = await connectHost(address.host, options);
  return {
    ...address,
    client,
    close: () => {
      client.close();
      holder?.close();
    },
  };
}

/**
 * Runs `work` with the connection for pane `ref` and the pane's ref on its
 * host, and closes the connection afterwards: what every command that takes
 * a pane does, local or not.
 */
export async function withPane<T>(
  ref: string,
  work: (client: DaemonClient, pane: string) => Promise<T>,
  options: LinkOptions = {},
): Promise<T> {
  const connection = await connectPane(ref, options);
  try {
    return await work(connection.client, connection.pane);
  } catch (error) {
    throw connection.host === null ? error : onHost(connection.host, error);
  } finally {
    connection.close();
  }
}

/**
 * Runs `work` with a connection to host `host`'s skiffd (through its link),
 * or to the local skiffd when `host` is undefined or null, and closes it
 * afterwards: for commands that name a host rather than a pane (`skiff new
 * --host`).
 */
export async function withSkiffd<T>(
  host: string | null | undefined,
  work: (client: DaemonClient) => Promise<T>,
  options: LinkOptions = {},
): Promise<T> {
  if (options.access) {
    const lease = await options.access.open(host ?? null, options);
    try {
      return await work(lease.client);
    } catch (error) {
      throw host === null || host === undefined ? error : onHost(host, error);
    } finally {
      lease.release();
    }
  }
  if (host === null || host === undefined) {
    const client = await connectDaemon({ start: options.start });
    try {
      return await work(client);
    } finally {
      client.close();
    }
  }
  const { client, holder } = await connectHost(host, options);
  try {
    return await work(client);
  } catch (error) {
    throw onHost(host, error);
  } finally {
    client.close();
    holder?.close();
  }
}

/**
 * An error from a request to a host's skiffd, worded for this side: it
 * names the host, and a link lost during the request is `UNREACHABLE` with
 * the outcome unknown.
 */
export function onHost(host: string, error: unknown): unknown {
  if (error instanceof ConnectionClosed) {
    return new SkiffError(
      `The link to ${host} was lost during the request: whether it was done there is unknown`,
      { exit: "UNREACHABLE", details: { host }, cause: error },
    );
  }
  if (!(error instanceof SkiffError) || error.details.host !== undefined) return error;
  const message = error.message.replace("See 'skiff ls'", "See 'skiff ls --all-hosts'");
  return new SkiffError(`${host}: ${message}`, {
    exit: error.exit,
    details: { ...error.details, host },
    cause: error,
  });
}
