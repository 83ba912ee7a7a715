/**
 * The steps of making a link after ssh has logged in, each one exchange
 * with the host under a time limit of its own: asking the host's `skiff`
 * what runs there (`skiff host remote`, which may start its skiffd),
 * forwarding a local socket to the host's skiffd socket over the master,
 * and opening the two connections of skiffd's protocol through it. A step
 * that fails throws a SkiffError whose exit says whether trying again may
 * help (`UNREACHABLE`) or not (the host refuses).
 *
 * @module
 */

import { type ExitName, SkiffError } from "../errors.ts";
import { ConnectionClosed, DaemonClient, type EventSubscription } from "../client/client.ts";
import type { EventCursor } from "../protocol/daemon.ts";
import type { RemoteInfo } from "../protocol/hosts.ts";
import type { HostConfig } from "./config.ts";
import { type LinkFiles, removeFile } from "./paths.ts";
import { parseRemoteInfo, parseVersion, tooOld } from "./remote.ts";
import { controlArgs, execArgs, remoteSkiffLine, runSsh, sshWhy } from "./ssh.ts";

/** How long `skiff host remote` may take on the host (it may start the host's skiffd). */
const REMOTE_TIMEOUT_MS = 40_000;
/** How long a control request (`-O forward`, `-O exit`) may take. */
export const CONTROL_TIMEOUT_MS = 5000;
/** How long the host's skiffd may take to answer `hello` through the forward. */
const HELLO_TIMEOUT_MS = 10_000;

/** What the steps need of a link: the host's name and config, and the link's files. */
export interface LinkEnds {
  /** The host's name. */
  readonly name: string;
  /** The host's config. */
  readonly host: HostConfig;
  /** The files of the link. */
  readonly files: LinkFiles;
}

/** The connections of skiffd's protocol through a link's forward. */
export interface LinkConnections {
  /** For requests. */
  rpc: DaemonClient;
  /** Subscribed to the host's events. */
  events: DaemonClient;
  /** The subscription on `events`. */
  subscription: EventSubscription;
}

/** Resolves `promise`, or throws `error()` once `ms` pass first. */
export async function within<T>(promise: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A failure that trying again later may cure. */
export function unreachable(why: string): SkiffError {
  return new SkiffError(why, { exit: "UNREACHABLE" });
}

/** Runs `skiff ARGS…` on the host over the master. */
function remoteSkiff(link: LinkEnds, args: string[]) {
  return runSsh(
    execArgs(link.host, link.files.control, remoteSkiffLine(link.host, args)),
    REMOTE_TIMEOUT_MS,
  );
}

/** Asks the host's `skiff` for its versions and socket, starting its skiffd if need be. */
export async function describeRemote(link: LinkEnds): Promise<RemoteInfo> {
  const out = await remoteSkiff(link, ["host", "remote", "--json"]);
  if (out.code === null) {
    throw unreachable(
      `'${link.host.skiff} host remote' on ${link.name} did not answer within ${
        REMOTE_TIMEOUT_MS / 1000
      } s`,
    );
  }
  const info = out.code === 0 ? parseRemoteInfo(out.stdout) : undefined;
  if (info) return info;
  const stderr = out.stderr;
  if (out.code === 255) throw unreachable(sshWhy(stderr, `ssh to ${link.host.ssh} failed`));
  if (out.code === 127 || out.code === 126 || /not found|No such file/i.test(stderr)) {
    throw new SkiffError(
      `Host ${link.name} has no '${link.host.skiff}' (its shell says: ${
        sshWhy(stderr, "command not found").replace(/^ssh: /, "")
      }): install Skiff there, or set [hosts.${link.name}] skiff to its path`,
      { exit: "NOT_FOUND", details: { host: link.name, skiff: link.host.skiff } },
    );
  }
  if (/Unknown command 'host'/.test(stderr)) {
    const version = await remoteSkiff(link, ["--version"]);
    throw tooOld(link.name, parseVersion(version.stdout));
  }
  const last = sshWhy(stderr, `exit ${out.code}`).replace(/^ssh: /, "");
  const exit: ExitName = out.code === 18 ? "PROTOCOL" : "UNREACHABLE";
  throw new SkiffError(`'${link.host.skiff} host remote' failed on ${link.name}: ${last}`, {
    exit,
    details: { host: link.name, remote_exit: out.code },
  });
}

/** Forwards the link's local socket to `remoteSocket` on the host. */
export async function openForward(link: LinkEnds, remoteSocket: string): Promise<void> {
  removeFile(link.files.socket);
  const out = await runSsh(
    controlArgs(link.host, link.files.control, "forward", {
      local: link.files.socket,
      remote: remoteSocket,
    }),
    CONTROL_TIMEOUT_MS,
  );
  if (out.code !== 0) {
    throw unreachable(
      `ssh could not forward ${link.files.socket} to ${link.name}:${remoteSocket}: ${
        sshWhy(out.stderr, "no answer").replace(/^ssh: /, "")
      }`,
    );
  }
}

/** Cancels the forward of the link's local socket to `remoteSocket`. */
export async function cancelForward(link: LinkEnds, remoteSocket: string): Promise<void> {
  await runSsh(
    controlArgs(link.host, link.files.control, "cancel", {
      local: link.files.socket,
      remote: remoteSocket,
    }),
    CONTROL_TIMEOUT_MS,
  );
}

/**
 * Opens the connection for requests and the one for events through the
 * forward, subscribed after `after` (where the last subscription stopped).
 */
export async function connectThrough(
  link: LinkEnds,
  after: EventCursor | undefined,
): Promise<LinkConnections> {
  const closedAtOnce = () =>
    unreachable(
      `${link.name} closed the forward to its skiffd at once: its sshd may not allow ` +
        `stream-local forwarding (AllowStreamLocalForwarding), or its skiffd stopped`,
    );
  const open = async () => {
    try {
      return await within(
        DaemonClient.connect(link.files.socket, { host: link.name }),
        HELLO_TIMEOUT_MS,
        () =>
          unreachable(`${link.name}'s skiffd did not answer within ${HELLO_TIMEOUT_MS / 1000} s`),
      );
    } catch (error) {
      if (error instanceof ConnectionClosed) throw closedAtOnce();
      throw error;
    }
  };
  const rpc = await open();
  const events = await open().catch((error) => {
    rpc.close();
    throw error;
  });
  const subscription = await within(
    events.subscribe({ after }),
    HELLO_TIMEOUT_MS,
    () => unreachable(`${link.name}'s skiffd did not answer within ${HELLO_TIMEOUT_MS / 1000} s`),
  ).catch((error) => {
    rpc.close();
    events.close();
    throw error;
  });
  return { rpc, events, subscription };
}
