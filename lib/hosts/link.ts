/**
 * One link to one host: an OpenSSH ControlMaster held by the local skiffd,
 * a stream-local forward from a private local socket to the host's skiffd
 * socket, and two connections of skiffd's own protocol through it: one for
 * requests, and one subscribed to the host's events, which the host pushes
 * (nothing polls). When the host's skiffd goes away (a restart), the link
 * connects again through the same forward, starting that skiffd through the
 * host's `skiff` when it does not come back by itself; when the SSH
 * connection ends, the link is made again, with backoff while it fails.
 * Each step is one line in skiffd's log.
 *
 * @module
 */

import { type ExitName, SkiffError } from "../errors.ts";
import { ConnectionClosed, DaemonClient } from "../client/client.ts";
import type { EventCursor } from "../protocol/daemon.ts";
import type { HostLink, HostState, RemoteInfo } from "../protocol/hosts.ts";
import { PROTOCOL_VERSION } from "../version.ts";
import type { HostConfig } from "./config.ts";
import { ensurePrivateDir, type LinkFiles } from "./paths.ts";
import { otherProtocol, parseRemoteInfo, parseVersion, tooOld } from "./remote.ts";
import {
  CONNECT_TIMEOUT_S,
  controlArgs,
  execArgs,
  masterArgs,
  remoteSkiffLine,
  runSsh,
  sshWhy,
} from "./ssh.ts";

/** How long the master may take to log in before the attempt counts as failed. */
const MASTER_TIMEOUT_MS = (CONNECT_TIMEOUT_S + 20) * 1000;
/** How long `skiff host remote` may take on the host (it may start the host's skiffd). */
const REMOTE_TIMEOUT_MS = 40_000;
/** How long a control request (`-O forward`, `-O exit`) may take. */
const CONTROL_TIMEOUT_MS = 5000;
/** How long the host's skiffd may take to answer `hello` through the forward. */
const HELLO_TIMEOUT_MS = 10_000;
/** How long the link waits for the host's skiffd to come back by itself (a reload, a restart). */
const COMEBACK_MS = 3000;
/** The first wait before trying a failed link again; it doubles up to {@linkcode MAX_BACKOFF_MS}. */
export const FIRST_BACKOFF_MS = 1000;
/** The longest wait between tries. */
export const MAX_BACKOFF_MS = 60_000;

/** What a link needs from the service that holds it. */
export interface LinkOptions {
  /** The files of this link. */
  files: LinkFiles;
  /** Writes one line to skiffd's log. */
  log: (line: string) => void;
  /** Told after every change of state. */
  changed: (link: Link, previous: HostState) => void;
  /** Whether the link is still used (else a failed link stops trying and goes idle). */
  inUse: (link: Link) => boolean;
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

function unreachable(why: string): SkiffError {
  return new SkiffError(why, { exit: "UNREACHABLE" });
}

function removeFile(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Not there.
  }
}

/**
 * Ends an ssh a killed skiffd left holding this link (its pid is in the
 * link's pid file), when that process still is that ssh, and removes the
 * link's files.
 */
export function clearLeftovers(files: LinkFiles): void {
  let pid = 0;
  try {
    pid = Number(Deno.readTextFileSync(files.pid).trim());
  } catch {
    // No pid file.
  }
  if (pid > 0) {
    let cmdline = "";
    try {
      cmdline = Deno.readTextFileSync(`/proc/${pid}/cmdline`);
    } catch {
      // Gone, or no /proc (macOS): only a process we can name is ended.
    }
    if (cmdline.includes(files.control)) {
      try {
        Deno.kill(pid, "SIGTERM");
      } catch {
        // Ended meanwhile.
      }
    }
  }
  removeFile(files.control);
  removeFile(files.socket);
  removeFile(files.pid);
}

/** A link to one host; see the module's documentation. */
export class Link {
  /** The host's name. */
  readonly name: string;
  /** The host's config as of the last use. */
  host: HostConfig;
  /** Where the link stands. */
  state: HostState = "idle";
  /** Why it is not up, else null. */
  why: string | null = null;
  /** The exit name for `why`. */
  exit: ExitName | null = null;
  /** Since when it is in its state. */
  since: number = Date.now();
  /** What the host's Skiff said at the last link. */
  remote: RemoteInfo | null = null;
  /** When it was last used. */
  lastUse: number = Date.now();
  /** How many holders keep it (attached terminals, the watcher). */
  holds = 0;
  readonly #options: LinkOptions;
  #master: Deno.ChildProcess | undefined;
  #masterRunning = false;
  #masterErr = "";
  #rpc: DaemonClient | undefined;
  #events: DaemonClient | undefined;
  #cursor: EventCursor | undefined;
  #attempt: Promise<void> | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #backoffMs = 0;
  #generation = 0;
  #waiters = new Set<() => void>();

  /** A link for `host`, idle until used. */
  constructor(host: HostConfig, options: LinkOptions) {
    this.name = host.name;
    this.host = host;
    this.#options = options;
  }

  /** The files of this link. */
  get files(): LinkFiles {
    return this.#options.files;
  }

  /** The connection for requests while the link is up. */
  get rpc(): DaemonClient | undefined {
    return this.state === "up" ? this.#rpc : undefined;
  }

  /** The link as `hosts.link` answers it. */
  describe(): HostLink {
    return {
      host: this.name,
      ssh: this.host.ssh,
      state: this.state,
      why: this.why,
      exit: this.exit,
      since: new Date(this.since).toISOString(),
      socket: this.state === "up" ? this.files.socket : null,
      remote: this.remote,
    };
  }

  /** Notes a use; an idle link starts connecting. */
  use(): void {
    this.lastUse = Date.now();
    if (this.state === "idle") void this.connect();
  }

  /** Tries now when the last try failed (a person asked), unless a try runs. */
  retryNow(): void {
    if (this.state !== "unreachable" && this.state !== "refused") return;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    void this.connect();
  }

  /** Resolves once the link is up or failed (not connecting), or after `ms`. */
  async settled(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    const waiters = this.#waiters;
    while (this.state === "connecting") {
      const left = deadline - Date.now();
      if (left <= 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(finish, left);
        const waiter = () => finish();
        function finish() {
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve();
        }
        waiters.add(waiter);
      });
    }
  }

  #setState(state: HostState, why: string | null = null, exit: ExitName | null = null): void {
    const previous = this.state;
    if (previous === state && this.why === why) return;
    this.state = state;
    this.why = why;
    this.exit = exit;
    if (previous !== state) this.since = Date.now();
    for (const waiter of this.#waiters) waiter();
    this.#waiters.clear();
    this.#options.changed(this, previous);
  }

  #log(line: string): void {
    this.#options.log(`host ${this.name}: ${line}`);
  }

  /** Makes the link (once: callers while it runs share the attempt). */
  connect(): Promise<void> {
    this.#attempt ??= this.#connect().finally(() => this.#attempt = undefined);
    return this.#attempt;
  }

  async #connect(): Promise<void> {
    const generation = ++this.#generation;
    const started = Date.now();
    this.#setState("connecting", this.why, this.exit);
    try {
      await this.#teardown();
      ensurePrivateDir(this.files.dir);
      clearLeftovers(this.files);
      this.#log(`linking over ssh to ${this.host.ssh}`);
      await this.#startMaster(generation);
      const remote = await this.#describeRemote();
      if (remote.protocol !== PROTOCOL_VERSION) {
        throw otherProtocol(this.name, remote, PROTOCOL_VERSION);
      }
      await this.#forward(remote.socket);
      await this.#connectClients(generation);
      if (generation !== this.#generation) return;
      this.remote = remote;
      this.#backoffMs = 0;
      this.#log(
        `up in ${
          Date.now() - started
        } ms: Skiff ${remote.daemon_version}, skiffd pid ${remote.pid}` +
          `${remote.started ? " (started it)" : ""}, socket ${remote.socket}`,
      );
      this.#setState("up");
    } catch (error) {
      if (generation !== this.#generation) return;
      const failure = error instanceof SkiffError ? error : unreachable(String(error));
      await this.#teardown();
      const refused = failure.exit !== "UNREACHABLE";
      this.#setState(refused ? "refused" : "unreachable", failure.message, failure.exit);
      if (refused) {
        this.#log(`refused: ${failure.message}`);
      } else {
        this.#scheduleRetry();
      }
    }
  }

  #scheduleRetry(): void {
    if (!this.#options.inUse(this)) {
      this.#log(`unreachable: ${this.why}; nothing uses it, so it is not tried again`);
      return;
    }
    this.#backoffMs = Math.min(Math.max(FIRST_BACKOFF_MS, this.#backoffMs * 2), MAX_BACKOFF_MS);
    this.#log(`unreachable: ${this.why}; next try in ${this.#backoffMs / 1000} s`);
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      if (this.state === "unreachable") void this.connect();
    }, this.#backoffMs);
  }

  async #startMaster(generation: number): Promise<void> {
    const child = new Deno.Command("ssh", {
      args: masterArgs(this.host, this.files.control),
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    this.#master = child;
    this.#masterRunning = true;
    this.#masterErr = "";
    Deno.writeTextFileSync(this.files.pid, `${child.pid}\n`);
    (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of child.stderr) {
        this.#masterErr = (this.#masterErr + decoder.decode(chunk)).slice(-4000);
      }
    })().catch(() => {});
    const ended = child.status.then((status) => {
      this.#masterRunning = false;
      removeFile(this.files.pid);
      return status;
    });
    ended.then((status) => this.#masterEnded(generation, status.code)).catch(() => {});
    const deadline = Date.now() + MASTER_TIMEOUT_MS;
    for (;;) {
      if (!this.#masterRunning) {
        // Let its last words arrive.
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw unreachable(sshWhy(this.#masterErr, `ssh to ${this.host.ssh} ended at once`));
      }
      try {
        if (Deno.statSync(this.files.control).isSocket) return;
      } catch {
        // Not yet: ssh makes it once it has logged in.
      }
      if (Date.now() > deadline) {
        throw unreachable(
          `ssh to ${this.host.ssh} did not log in within ${MASTER_TIMEOUT_MS / 1000} s`,
        );
      }
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 20))]);
    }
  }

  #masterEnded(generation: number, code: number): void {
    if (generation !== this.#generation || this.state === "idle") return;
    if (this.state === "connecting" && this.#attempt) return;
    const why = sshWhy(this.#masterErr, `ssh exited with code ${code}`);
    this.#log(`the ssh connection ended (${why}); linking again`);
    this.why = why;
    void this.connect();
  }

  /** Runs `skiff ARGS…` on the host over the master. */
  #remoteSkiff(args: string[], timeoutMs: number) {
    return runSsh(
      execArgs(this.host, this.files.control, remoteSkiffLine(this.host, args)),
      timeoutMs,
    );
  }

  async #describeRemote(): Promise<RemoteInfo> {
    const out = await this.#remoteSkiff(["host", "remote", "--json"], REMOTE_TIMEOUT_MS);
    if (out.code === null) {
      throw unreachable(
        `'${this.host.skiff} host remote' on ${this.name} did not answer within ${
          REMOTE_TIMEOUT_MS / 1000
        } s`,
      );
    }
    const info = out.code === 0 ? parseRemoteInfo(out.stdout) : undefined;
    if (info) return info;
    const stderr = out.stderr;
    if (out.code === 255) throw unreachable(sshWhy(stderr, `ssh to ${this.host.ssh} failed`));
    if (out.code === 127 || out.code === 126 || /not found|No such file/i.test(stderr)) {
      throw new SkiffError(
        `Host ${this.name} has no '${this.host.skiff}' (its shell says: ${
          sshWhy(stderr, "command not found").replace(/^ssh: /, "")
        }): install Skiff there, or set [hosts.${this.name}] skiff to its path`,
        { exit: "NOT_FOUND", details: { host: this.name, skiff: this.host.skiff } },
      );
    }
    if (/Unknown command 'host'/.test(stderr)) {
      const version = await this.#remoteSkiff(["--version"], REMOTE_TIMEOUT_MS);
      throw tooOld(this.name, parseVersion(version.stdout));
    }
    const last = sshWhy(stderr, `exit ${out.code}`).replace(/^ssh: /, "");
    const exit: ExitName = out.code === 18 ? "PROTOCOL" : "UNREACHABLE";
    throw new SkiffError(`'${this.host.skiff} host remote' failed on ${this.name}: ${last}`, {
      exit,
      details: { host: this.name, remote_exit: out.code },
    });
  }

  async #forward(remoteSocket: string): Promise<void> {
    removeFile(this.files.socket);
    const out = await runSsh(
      controlArgs(this.host, this.files.control, "forward", {
        local: this.files.socket,
        remote: remoteSocket,
      }),
      CONTROL_TIMEOUT_MS,
    );
    if (out.code !== 0) {
      throw unreachable(
        `ssh could not forward ${this.files.socket} to ${this.name}:${remoteSocket}: ${
          sshWhy(out.stderr, "no answer").replace(/^ssh: /, "")
        }`,
      );
    }
  }

  async #connectClients(generation: number): Promise<void> {
    const closedAtOnce = () =>
      unreachable(
        `${this.name} closed the forward to its skiffd at once: its sshd may not allow ` +
          `stream-local forwarding (AllowStreamLocalForwarding), or its skiffd stopped`,
      );
    const open = async () => {
      try {
        return await within(
          DaemonClient.connect(this.files.socket, { host: this.name }),
          HELLO_TIMEOUT_MS,
          () =>
            unreachable(`${this.name}'s skiffd did not answer within ${HELLO_TIMEOUT_MS / 1000} s`),
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
      events.subscribe({ after: this.#cursor }),
      HELLO_TIMEOUT_MS,
      () => unreachable(`${this.name}'s skiffd did not answer within ${HELLO_TIMEOUT_MS / 1000} s`),
    ).catch((error) => {
      rpc.close();
      events.close();
      throw error;
    });
    this.#rpc = rpc;
    this.#events = events;
    this.#cursor = subscription.cursor;
    (async () => {
      for await (const event of subscription) {
        this.#cursor = subscription.cursor;
        if (event.event === "resync") {
          this.#log(
            `its skiffd ${event.reason === "new-run" ? "restarted" : "lost events"}; in step again`,
          );
        }
      }
    })().catch(() => {}).finally(() => this.#remoteDropped(generation));
  }

  /** The event stream ended: the host's skiffd went away, or the SSH connection did. */
  async #remoteDropped(generation: number): Promise<void> {
    if (generation !== this.#generation || this.state !== "up") return;
    // Give a dying ssh a moment to be seen, so a lost connection is not taken for a restart.
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (generation !== this.#generation || this.state !== "up" || !this.#masterRunning) return;
    this.#rpc?.close();
    this.#log("its skiffd went away; connecting again through the link");
    this.#setState("connecting");
    const deadline = Date.now() + COMEBACK_MS;
    const attempt = (async () => {
      while (Date.now() < deadline) {
        try {
          await this.#connectClients(generation);
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 150));
        }
        if (generation !== this.#generation || !this.#masterRunning) return;
      }
      // It did not come back by itself: start it through the host's skiff, as any command would.
      this.#log("its skiffd did not come back; starting it");
      const remote = await this.#describeRemote();
      if (remote.protocol !== PROTOCOL_VERSION) {
        throw otherProtocol(this.name, remote, PROTOCOL_VERSION);
      }
      if (remote.socket !== this.remote?.socket) {
        await runSsh(
          controlArgs(this.host, this.files.control, "cancel", {
            local: this.files.socket,
            remote: this.remote?.socket ?? remote.socket,
          }),
          CONTROL_TIMEOUT_MS,
        );
        await this.#forward(remote.socket);
      }
      this.remote = remote;
      await this.#connectClients(generation);
    })();
    this.#attempt = attempt.finally(() => this.#attempt = undefined);
    try {
      await attempt;
      if (generation !== this.#generation) return;
      if (!this.#rpc || this.#rpc.closed || !this.#masterRunning) {
        throw unreachable("the ssh connection ended while the link connected again");
      }
      this.#log("up again");
      this.#setState("up");
      // It may have gone again meanwhile.
      if (this.#events?.closed) void this.#remoteDropped(generation);
    } catch (error) {
      if (generation !== this.#generation) return;
      if (!this.#masterRunning) {
        // The SSH connection itself went: make the whole link again, at once.
        void this.connect();
        return;
      }
      const failure = error instanceof SkiffError ? error : unreachable(String(error));
      await this.#teardown();
      const refused = failure.exit !== "UNREACHABLE";
      this.#setState(refused ? "refused" : "unreachable", failure.message, failure.exit);
      if (!refused) this.#scheduleRetry();
    }
  }

  /** Ends the connections and the master, and removes the link's files. */
  async #teardown(): Promise<void> {
    this.#rpc?.close();
    this.#events?.close();
    this.#rpc = undefined;
    this.#events = undefined;
    const master = this.#master;
    this.#master = undefined;
    if (master && this.#masterRunning) {
      await runSsh(controlArgs(this.host, this.files.control, "exit"), CONTROL_TIMEOUT_MS)
        .catch(() => {});
      try {
        master.kill("SIGTERM");
      } catch {
        // Ended already.
      }
      await within(master.status, 2000, () => new Error("ssh did not end")).catch(() => {
        try {
          master.kill("SIGKILL");
        } catch {
          // Ended meanwhile.
        }
      });
    }
    this.#masterRunning = false;
    removeFile(this.files.control);
    removeFile(this.files.socket);
    removeFile(this.files.pid);
  }

  /** Closes the link for good (skiffd stops) or until its next use (`why` says which). */
  async close(why: string): Promise<void> {
    this.#generation++;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    const was = this.state;
    await this.#teardown();
    if (was !== "idle") this.#log(`closed: ${why}`);
    this.#setState("idle");
  }
}
