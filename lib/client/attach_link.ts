/**
 * An attachment to one pane that outlives its connection: when skiffd
 * reloads, restarts or is upgraded, the link attaches again to the same
 * pane on a new connection. Keys given to it meanwhile are held; they go in,
 * in order, when the pane's process is the same one, and are refused (and
 * counted) when it is a new one, since they were meant for the old.
 *
 * `skiff attach`, the app's terminals and the dashboard all attach through
 * it; none of them draws anything here.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { type AttachEnd, encodeFrame, Frame, FrameReader } from "../protocol/frames.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import type { DaemonClient } from "./client.ts";
import { connectDaemon, daemonAlive, tryConnect } from "./connect.ts";

/**
 * How long to look for skiffd again after it dropped the connection with no
 * word (it was killed, or crashed): once no skiffd holds its lock, the link
 * starts one, as any command would, and follows the restore.
 */
export const LOST_RECONNECT_MS = 10_000;
/** How long to wait for a skiffd that said it comes back (a restart takes a stop and a start). */
export const RETURN_RECONNECT_MS = 30_000;
/** How long the old connection may take to close after the link said it leaves. */
const AWAY_CLOSE_MS = 5000;

/** A terminal size. */
export interface TerminalSize {
  /** Columns. */
  cols: number;
  /** Rows. */
  rows: number;
}

/** Options for {@linkcode AttachLink.open}. */
export interface AttachLinkOptions {
  /** The socket; by default the configured one. */
  socket?: string;
  /**
   * Start skiffd when none answers (default true): at first, and when it
   * went away with no word and nothing took its place.
   */
  start?: boolean;
  /** The terminal's size now, asked at each attach; undefined when it does not know. */
  size?: () => TerminalSize | undefined;
  /** Lines of history in the first redraw (default 0). */
  scrollback?: number;
  /**
   * Only follow the pane's output (a preview): skiffd ignores input and
   * size, and the link counts neither as attached nor as a person's use.
   */
  watch?: boolean;
  /** Receives the pane's output (a redraw first, then bytes as they come). */
  output: (data: Uint8Array) => void;
  /** Told each time the link attached again after skiffd came back, before its output. */
  reattached?: (info: PaneInfo, change: Reattach) => void;
}

/** What changed across a reattach. */
export interface Reattach {
  /** Why the link attached again: `reload`, `restart` (skiffd said it returns), or `lost`. */
  why: "reload" | "restart" | "lost";
  /** The pane runs a new process (a new generation): a restart or a crash restored it. */
  newProcess: boolean;
  /** Bytes typed while the link was away that were not sent, since the process is new. */
  refused: number;
}

/** How a link ended. */
export interface LinkEnd {
  /**
   * `detached`, `exited`, `killed`, `daemon stopped`, `gone` (the pane was
   * not there after skiffd came back), or `lost` (skiffd went away and did
   * not come back).
   */
  reason: string;
  /** Bytes typed while the link was away that never went in (it ended first). */
  unsent?: number;
}

type State = "live" | "away" | "ended";

/** A reconnecting attachment to one pane. */
export class AttachLink {
  /** The pane, as skiffd described it at the last attach. */
  info: PaneInfo;
  /** Resolves once the link ended for good. */
  readonly done: Promise<LinkEnd>;
  readonly #options: AttachLinkOptions;
  #client: DaemonClient;
  #state: State = "live";
  #held: Uint8Array[] = [];
  #writes: Promise<void> = Promise.resolve();
  #resolveDone: (end: LinkEnd) => void = () => {};
  #detaching = false;

  private constructor(client: DaemonClient, info: PaneInfo, options: AttachLinkOptions) {
    this.#client = client;
    this.info = info;
    this.#options = options;
    this.done = new Promise((resolve) => this.#resolveDone = resolve);
  }

  /**
   * Attaches to `pane` (an id, a name or `project/name`). Throws what
   * skiffd answers: `NOT_FOUND`, `NOT_RUNNING`, or `DAEMON` when it cannot be
   * reached.
   */
  static async open(pane: string, options: AttachLinkOptions): Promise<AttachLink> {
    const client = await connectDaemon({ socket: options.socket, start: options.start, pane });
    let info: PaneInfo;
    try {
      info = await client.call(
        "attach",
        {
          pane,
          ...options.size?.(),
          scrollback: options.scrollback ?? 0,
          ...(options.watch ? { watch: true } : {}),
        },
        { raw: true },
      );
    } catch (error) {
      client.close();
      throw error;
    }
    const link = new AttachLink(client, info, options);
    link.#listen(client);
    return link;
  }

  /** Whether the link is attached now (not away, not ended). */
  get live(): boolean {
    return this.#state === "live";
  }

  /** Types `data` into the pane; while the link is away, it waits for the next attach. */
  input(data: Uint8Array): void {
    if (data.length === 0 || this.#state === "ended") return;
    if (this.#state === "away") {
      this.#held.push(data.slice());
      return;
    }
    this.#send(Frame.INPUT, data);
  }

  /** Gives the pane this terminal's size. */
  resize(size: TerminalSize): void {
    if (this.#state === "live") this.#send(Frame.RESIZE, JSON.stringify(size));
  }

  /** Asks for a full redraw of the pane's screen. */
  redraw(): void {
    if (this.#state === "live") this.#send(Frame.REDRAW, "");
  }

  /**
   * Leaves the pane, which keeps running; `done` resolves with `detached`.
   * While the link is away it leaves at once: keys held for the next attach
   * are counted in `unsent`.
   */
  detach(): void {
    if (this.#state === "ended") return;
    this.#detaching = true;
    if (this.#state === "live") this.#send(Frame.DETACH, "");
    else this.#end("detached");
  }

  /** Ends the link at once (the pane keeps running). */
  close(): void {
    this.#end("detached");
  }

  /** Writes one frame after those before it: frames never interleave. */
  #send(type: number, payload: Uint8Array | string): void {
    const client = this.#client;
    const frame = encodeFrame(type, payload);
    this.#writes = this.#writes.then(() => client.write(frame)).catch(() => {});
  }

  /** Whether the link ended (read again after each wait). */
  #isEnded(): boolean {
    return this.#state === "ended";
  }

  #end(reason: string): void {
    if (this.#state === "ended") return;
    this.#state = "ended";
    const unsent = this.#held.reduce((sum, data) => sum + data.length, 0);
    this.#held = [];
    this.#client.close();
    this.#resolveDone(unsent > 0 ? { reason, unsent } : { reason });
  }

  #listen(client: DaemonClient): void {
    const reader = new FrameReader();
    let end: AttachEnd | undefined;
    client.onRaw((data) => {
      if (client !== this.#client || this.#state === "ended") return;
      if (data === null) return void this.#dropped(end);
      let frames;
      try {
        frames = reader.push(data);
      } catch {
        client.close();
        return;
      }
      for (const frame of frames) {
        if (frame.type === Frame.OUTPUT) {
          if (this.#state === "live") this.#options.output(frame.payload);
        } else if (frame.type === Frame.END && end === undefined) {
          end = parseEnd(frame.payload);
          if (end.returning && !this.#detaching) {
            // Keys typed from now on wait for the next attach. skiffd reads
            // every frame sent before our DETACH, so none typed before is lost.
            this.#state = "away";
            this.#send(Frame.DETACH, "");
            const timer = setTimeout(() => client.close(), AWAY_CLOSE_MS);
            this.done.finally(() => clearTimeout(timer));
            client.onRaw((rest) => {
              if (rest === null) {
                clearTimeout(timer);
                void this.#dropped(end);
              }
            });
            return;
          }
        }
      }
    });
  }

  /** The connection closed: end, or attach again when skiffd comes back. */
  async #dropped(end: AttachEnd | undefined): Promise<void> {
    if (this.#state === "ended") return;
    if (this.#detaching) return this.#end("detached");
    if (end && !end.returning) return this.#end(end.reason);
    this.#state = "away";
    const why: Reattach["why"] = !end ? "lost" : end.reason === "reload" ? "reload" : "restart";
    const attached = await this.#attachAgain(end ? RETURN_RECONNECT_MS : LOST_RECONNECT_MS, {
      // A skiffd that said it comes back is started by whoever restarts it; one that went
      // with no word is started here, as by any command, once nothing holds its lock.
      start: !end && this.#options.start !== false,
    });
    if (this.#isEnded()) return "client" in attached ? attached.client.close() : undefined;
    if (!("client" in attached)) {
      return this.#end(attached.reason === "lost" && end ? end.reason : attached.reason);
    }
    const { client, info } = attached;
    const newProcess = info.generation !== this.info.generation;
    const held = this.#held;
    this.#held = [];
    this.#client = client;
    this.info = info;
    this.#state = "live";
    const refused = newProcess ? held.reduce((sum, data) => sum + data.length, 0) : 0;
    if (!newProcess) { for (const data of held) this.#send(Frame.INPUT, data); }
    // Told before the new attach's output: skiffd's redraw may have come with its answer, and
    // listening hands it on at once (a notice set after it waited for output that never came).
    this.#options.reattached?.(info, { why, newProcess, refused });
    this.#listen(client);
  }

  /**
   * Attaches to the pane on a new connection, trying until `timeoutMs`
   * passes: a skiffd that is still stopping refuses, and the next one is
   * not there yet. With `start`, a skiffd is started when none holds the
   * lock.
   */
  async #attachAgain(
    timeoutMs: number,
    options: { start: boolean },
  ): Promise<{ client: DaemonClient; info: PaneInfo } | LinkEnd> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let client: DaemonClient | undefined;
      try {
        client = await this.#connectAgain(deadline, options);
      } catch (error) {
        // Its saved workspace has no such pane: a start would not bring it back.
        if (error instanceof SkiffError && error.exit === "NOT_FOUND") return { reason: "gone" };
        return { reason: "lost" };
      }
      if (!client) return { reason: "lost" };
      if (this.#isEnded()) return { client, info: this.info };
      try {
        const info = await client.call(
          "attach",
          // The pane keeps the size it has: the terminal in use gives it when it types.
          {
            pane: this.info.id,
            ...this.#options.size?.(),
            take_size: false,
            ...(this.#options.watch ? { watch: true } : {}),
          },
          { raw: true },
        );
        return { client, info };
      } catch (error) {
        client.close();
        const exit = error instanceof SkiffError ? error.exit : undefined;
        if (exit === "NOT_RUNNING") return { reason: "exited" };
        if (exit === "NOT_FOUND") return { reason: "gone" };
        if (Date.now() >= deadline) return { reason: "lost" };
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /**
   * A connection to the skiffd that serves the socket now, looked for until
   * `deadline`; with `start`, one is started (the pane's ref checked against
   * the saved workspace first) once no skiffd holds the lock. A start that
   * fails (the local end of a link to another host has no skiffd to start)
   * is looked past until the deadline.
   */
  async #connectAgain(
    deadline: number,
    options: { start: boolean },
  ): Promise<DaemonClient | undefined> {
    const socket = this.#options.socket;
    for (;;) {
      const client = await tryConnect(socket);
      if (client) return client;
      if (options.start && !(await daemonAlive(socket))) {
        try {
          return await connectDaemon({ socket, pane: this.info.id });
        } catch (error) {
          if (error instanceof SkiffError && error.exit === "NOT_FOUND") throw error;
        }
      }
      if (Date.now() >= deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function parseEnd(payload: Uint8Array): AttachEnd {
  try {
    const end = JSON.parse(new TextDecoder().decode(payload));
    return {
      reason: typeof end.reason === "string" ? end.reason : "detached",
      returning: end.returning === true,
    };
  } catch {
    return { reason: "detached" };
  }
}
