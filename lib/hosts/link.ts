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
import type { DaemonClient } from "../client/client.ts";
import type { EventCursor } from "../protocol/daemon.ts";
import type { HostLink, HostState, RemoteInfo } from "../protocol/hosts.ts";
import { PROTOCOL_VERSION } from "../version.ts";
import type { HostConfig } from "./config.ts";
import {
  cancelForward,
  connectThrough,
  describeRemote,
  openForward,
  unreachable,
} from "./link_steps.ts";
import { clearLeftovers, ensurePrivateDir, type LinkFiles, removeFile } from "./paths.ts";
import { otherProtocol } from "./remote.ts";
import { SshMaster } from "./ssh_master.ts";

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

/** A time as ISO 8601, or null. */
function iso(at: number | null): string | null {
  return at === null ? null : new Date(at).toISOString();
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
  /** When it was last up, or null when it never was. */
  #lastUp: number | null = null;
  /** When the next try after a failed one is due, or null when none waits. */
  #nextTry: number | null = null;
  readonly #options: LinkOptions;
  #master: SshMaster | undefined;
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
      last_up: iso(this.state === "up" ? Date.now() : this.#lastUp),
      next_try: iso(this.#nextTry),
    };
  }

  /** Whether a failed link waits for its next try (it is unreachable, and still used). */
  get waitsToRetry(): boolean {
    return this.state === "unreachable" && this.#nextTry !== null;
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
    this.#nextTry = null;
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
    if (previous === "up" || state === "up") this.#lastUp = Date.now();
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
    this.#nextTry = null;
    this.#setState("connecting", this.why, this.exit);
    try {
      await this.#teardown();
      ensurePrivateDir(this.files.dir);
      clearLeftovers(this.files);
      this.#log(`linking over ssh to ${this.host.ssh}`);
      const master: SshMaster = new SshMaster(this, {
        ended: (code) => this.#masterEnded(generation, master.why(`ssh exited with code ${code}`)),
      });
      this.#master = master;
      await master.loggedIn();
      const known = this.remote;
      const again = known ? await this.#throughKnown(known, generation) : undefined;
      const remote = again ?? await this.#throughAsked(generation);
      if (generation !== this.#generation) return;
      this.remote = remote;
      this.#backoffMs = 0;
      this.#log(
        `up in ${
          Date.now() - started
        } ms: Skiff ${remote.daemon_version}, skiffd pid ${remote.pid}` +
          `${remote.started ? " (started it)" : ""}, socket ${remote.socket}` +
          `${again ? " (as before)" : ""}`,
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

  /** Asks the host's `skiff` what runs there, then forwards to its skiffd and connects. */
  async #throughAsked(generation: number): Promise<RemoteInfo> {
    const remote = await describeRemote(this);
    if (remote.protocol !== PROTOCOL_VERSION) {
      throw otherProtocol(this.name, remote, PROTOCOL_VERSION);
    }
    await openForward(this, remote.socket);
    await this.#connectClients(generation);
    return remote;
  }

  /**
   * A link made again (its SSH connection went; the host's skiffd most often
   * still runs) first forwards to the socket the host's Skiff named last
   * time: asking `skiff host remote` again starts a Deno on the host, near
   * half of what making the link takes, and `ls --all-hosts` has 0.8 s for a
   * host that is back. `undefined` when nothing answers there as before (a
   * restarted host, another socket, another protocol): then it is asked.
   * What it said last time stays, but for its skiffd's version and pid, from
   * the hello: asking again in the background would race a skiffd that
   * stops there, and start another.
   */
  async #throughKnown(known: RemoteInfo, generation: number): Promise<RemoteInfo | undefined> {
    try {
      await openForward(this, known.socket);
      await this.#connectClients(generation);
      const server = this.#rpc?.server;
      if (!server) throw new Error("no hello");
      return { ...known, daemon_version: server.version, pid: server.pid, started: false };
    } catch {
      this.#rpc?.close();
      this.#events?.close();
      this.#rpc = undefined;
      this.#events = undefined;
      await cancelForward(this, known.socket).catch(() => {});
      return undefined;
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
    this.#nextTry = Date.now() + this.#backoffMs;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#nextTry = null;
      if (this.state === "unreachable") void this.connect();
    }, this.#backoffMs);
  }

  /** Whether the link's ssh still runs. */
  get #masterRunning(): boolean {
    return this.#master?.running ?? false;
  }

  /** The link's ssh ended, for `why`: unless the link is being made or closed, make it again. */
  #masterEnded(generation: number, why: string): void {
    if (generation !== this.#generation || this.state === "idle") return;
    if (this.state === "connecting" && this.#attempt) return;
    this.#log(`the ssh connection ended (${why}); linking again`);
    this.why = why;
    void this.connect();
  }

  async #connectClients(generation: number): Promise<void> {
    const { rpc, events, subscription } = await connectThrough(this, this.#cursor);
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
      const remote = await describeRemote(this);
      if (remote.protocol !== PROTOCOL_VERSION) {
        throw otherProtocol(this.name, remote, PROTOCOL_VERSION);
      }
      if (remote.socket !== this.remote?.socket) {
        await cancelForward(this, this.remote?.socket ?? remote.socket);
        await openForward(this, remote.socket);
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
    await master?.stop();
    removeFile(this.files.control);
    removeFile(this.files.socket);
    removeFile(this.files.pid);
  }

  /** Closes the link for good (skiffd stops) or until its next use (`why` says which). */
  async close(why: string): Promise<void> {
    this.#generation++;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#nextTry = null;
    const was = this.state;
    await this.#teardown();
    if (was !== "idle") this.#log(`closed: ${why}`);
    this.#setState("idle");
  }
}
