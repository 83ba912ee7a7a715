/**
 * The watcher: follows skiffd's events for the panes of open tasks, turns
 * what happened into lines for the Skiff agent, and types them into the
 * agent's pane only when it is safe. What needs the person (an approval, a
 * bell) becomes a desktop notification instead.
 *
 * It keeps no state of its own: the ledger, the pane list and each pane's
 * unread flag are its input, so a new run tells the agent again what is
 * still unread. Within a run it remembers what it already told.
 *
 * Tasks on panes of other hosts are followed through the links the local
 * skiffd holds (`host_watch.ts`): one follower per host of open tasks,
 * taken up when the ledger gets such a task and let go when none is left.
 * Their lines name the pane as `HOST:NAME`; a host that cannot be reached is
 * one line, and one more when it is back.
 *
 * This module reads the events and decides; what a pane's state means as a
 * fact is `facts.ts`'s, and typing the facts when it is safe is `waker.ts`'s.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { DaemonClient } from "../client/client.ts";
import { followEvents } from "../client/follow.ts";
import type { Event } from "../protocol/events.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import { SKIFF_AGENT_MARK } from "../protocol/sessions.ts";
import { hostFact, idleFact, INTERESTING, standingFacts, unreadFacts } from "./facts.ts";
import { followedUid } from "./follow.ts";
import { HostsWatch } from "./host_watch.ts";
import { type Fact, hostFactKey } from "./lines.ts";
import { type NotifyOutcome, notifyPerson } from "./notify.ts";
import { WakeQueue } from "./queue.ts";
import { ToldLog } from "./told.ts";
import { WatchView } from "./view.ts";
import { Waker } from "./waker.ts";

/** When this process started: a watcher that reconnects to a new skiffd keeps it. */
const STARTED = new Date(performance.timeOrigin).toISOString();

/** How long the watcher looks for skiffd again after it went away. */
export const RECONNECT_MS = 10 * 60_000;

/** Options for {@linkcode runWatcher}. */
export interface WatcherOptions {
  /** The socket; by default the configured one. */
  socket?: string;
  /** The ledger's path. */
  ledgerPath: () => string;
  /** Writes one line to the watcher's log. */
  log: (line: string) => void;
  /** Send desktop notifications (default true). */
  notify?: boolean;
  /** Sends a notification; by default `notify-send` or `osascript`. */
  notifier?: (title: string, body: string) => Promise<NotifyOutcome>;
  /** How long to look for skiffd again after it went away (default 10 minutes). */
  reconnectMs?: number;
}

/** Why the watcher stopped. */
export type WatcherStop = "session-ended" | "no-session" | "daemon-stopped" | "daemon-gone";

class Watcher {
  readonly #options: WatcherOptions;
  readonly #queue = new WakeQueue();
  readonly #told = new ToldLog();
  readonly #view: WatchView;
  readonly #hosts: HostsWatch;
  readonly #waker: Waker;
  #client: DaemonClient | undefined;
  #stop: WatcherStop | undefined;

  constructor(options: WatcherOptions) {
    this.#options = options;
    this.#hosts = new HostsWatch({
      ledgerPath: options.ledgerPath,
      log: options.log,
      ledgerChanged: () => void this.#refresh().catch(() => {}),
      event: (event) => this.#onEvent(event),
      connected: (host) => this.#hostConnected(host),
      down: (host, why) => this.#hostDown(host, why),
    });
    this.#view = new WatchView(options.ledgerPath, () => this.#hosts.panes());
    this.#waker = new Waker({
      queue: this.#queue,
      told: this.#told,
      view: this.#view,
      log: options.log,
      refresh: () => this.#refresh(),
      call: () => this.#call,
      client: () => this.#client,
      stopped: () => this.#stop !== undefined,
    });
  }

  get stopReason(): WatcherStop | undefined {
    return this.#stop;
  }

  async run(): Promise<WatcherStop> {
    const events = followEvents({
      socket: this.#options.socket,
      start: false,
      reconnectMs: this.#options.reconnectMs ?? RECONNECT_MS,
      connected: async (client) => {
        const reconnected = this.#client !== undefined;
        this.#client = client;
        // A new connection holds no link yet.
        this.#hosts.connected();
        await client.call("watch.register", { pid: Deno.pid, started: STARTED, reconnected });
      },
      subscribed: async () => {
        try {
          await this.#relist("connected");
        } catch (error) {
          if (!(error instanceof SkiffError) || error.exit !== "DAEMON") throw error;
        }
      },
    });
    try {
      for await (const event of events) {
        try {
          await this.#onEvent(event);
        } catch (error) {
          // The connection went while handling the event: the stream ends too, and the
          // next connection resumes after this event's place.
          if (!(error instanceof SkiffError) || error.exit !== "DAEMON") throw error;
        }
        if (this.#stop) break;
      }
    } catch (error) {
      if (!(error instanceof SkiffError) || error.exit !== "DAEMON") throw error;
      this.#options.log(`skiffd did not come back: ${error.message}; stopping`);
      this.#stop = "daemon-gone";
    } finally {
      this.#waker.close();
      this.#hosts.close();
      this.#view.close();
    }
    return this.#stop ?? "daemon-gone";
  }

  /** Calls skiffd on the current connection. */
  get #call(): DaemonClient["call"] {
    const client = this.#client;
    if (!client) throw new SkiffError("not connected to skiffd", { exit: "DAEMON" });
    return client.call.bind(client) as DaemonClient["call"];
  }

  /** Reads the panes and the ledger again, and follows the hosts of open tasks; returns the panes by key. */
  async #refresh(): Promise<Map<string, PaneInfo>> {
    const panes = await this.#view.refresh(this.#call);
    this.#hosts.follow(this.#view.hosts, this.#client);
    return panes;
  }

  /** A host of open tasks cannot be reached: one line, until it is back. */
  async #hostDown(host: string, why: string): Promise<void> {
    this.#options.log(`host ${host} is unreachable: ${why}`);
    if (this.#told.hostTold(host) === "host-down") return;
    const key = hostFactKey(host);
    const queued = this.#queue.facts.find((f) => f.pane === key);
    if (queued?.kind === "host-up") {
      // It went again before the agent heard it was back: nothing changed for the agent.
      this.#queue.drop(key);
      return;
    }
    await this.#call("watch.forget", { pane: key }).catch(() => {});
    this.#put(hostFact(this.#view, host, "host-down"));
    this.#waker.schedule();
  }

  /** A host's follower is connected (again): back, if the agent heard it was not; then its news. */
  async #hostConnected(host: string): Promise<void> {
    const key = hostFactKey(host);
    const queued = this.#queue.facts.find((f) => f.pane === key);
    if (queued?.kind === "host-down") {
      // Back before the agent heard it went: nothing to tell.
      this.#queue.drop(key);
      this.#options.log(`host ${host} is back before its line went out; dropped it`);
    } else if (this.#told.hostTold(host) === "host-down") {
      await this.#call("watch.forget", { pane: key }).catch(() => {});
      await this.#refresh();
      this.#put(hostFact(this.#view, host, "host-up"));
      this.#options.log(`host ${host} is back`);
    }
    await this.#relist(`host ${host} followed`);
  }

  /** Puts a fact in the queue unless it was told already in this run under its key. */
  #put({ fact, key }: { fact: Fact; key: string }): void {
    this.#told.put(this.#queue, fact, key);
  }

  /** Lists everything again (a new connection, or a resync) and queues what is unread. */
  async #relist(why: string): Promise<void> {
    const panes = await this.#refresh();
    if (!this.#view.agentPane) {
      this.#options.log("no Skiff agent session (no pane with the skiff-agent mark); stopping");
      this.#stop = "no-session";
      return;
    }
    this.#options.log(
      `${why}: following ${this.#view.followed.size} pane(s) for ${this.#view.agentPane.name} (${this.#view.agentPane.id})`,
    );
    const seen = { view: this.#view, told: this.#told };
    for (const keyed of unreadFacts(panes, seen)) this.#put(keyed);
    // A restart or a removal came after whatever the unread flags tell: it goes last, so
    // it replaces an older fact about the same pane.
    for (const keyed of standingFacts(this.#view)) this.#put(keyed);
    this.#waker.schedule();
  }

  /** Turns one event (of this host's skiffd, or of a followed host) into what it means. */
  async #onEvent(event: Event): Promise<void> {
    if (event.event === "resync") return await this.#relist(`resync (${event.reason})`);
    if (event.event === "seen") {
      this.#told.seen(event.pane);
      // A pane of another host: skiffd here never sees it marked seen, so it is told.
      if (event.pane.includes(":")) await this.#call("watch.forget", { pane: event.pane });
      return;
    }
    if (event.event === "host") {
      this.#hosts.wake(event.host);
      return;
    }
    if (event.event === "session-ended") {
      if (Object.hasOwn(event.marks, SKIFF_AGENT_MARK)) {
        this.#options.log(`the Skiff agent's session ${event.session_name} ended; stopping`);
        this.#stop = "session-ended";
      }
      return;
    }
    if (event.event === "daemon-stopping" && !event.returning) {
      // Stopped for good: the next skiffd starts a watcher of its own when it finds the agent.
      this.#options.log(`skiffd is stopping (${event.reason}) and not coming back; stopping`);
      this.#stop = "daemon-stopped";
      return;
    }
    if (!("pane" in event)) return;
    if (!INTERESTING.has(event.event)) return;
    await this.#refresh();
    const key = `${event.run}:${event.seq}`;
    const agent = this.#view.agentPane;
    if (agent && event.pane === agent.id) {
      if (event.event === "waiting") await this.#notify(agent.name, "waits for an approval");
      this.#waker.schedule();
      return;
    }
    const followed = this.#view.followed.get(event.pane);
    if (!followed) return;
    const uid = followedUid(followed);
    switch (event.event) {
      case "turn-start":
      case "waiting":
        // The pane works or waits again: an idle line about it is old news.
        this.#queue.dropIdle(followed.pane);
        this.#told.busyAgain(followed.pane);
        if (event.event === "waiting") await this.#notify(followed.name, "waits for an approval");
        break;
      case "bell":
        await this.#notify(followed.name, "rang the bell");
        break;
      case "turn-end":
      case "idle-no-turn": {
        const fact = idleFact(followed, { view: this.#view, told: this.#told });
        if (fact) this.#put({ fact, key: `event:${key}` });
        break;
      }
      case "exit":
        if (uid) {
          const kind = event.what === "agent" ? "agent-exit" : "exit";
          this.#put({
            fact: { pane: followed.pane, name: followed.name, uid, kind },
            key: `event:${key}`,
          });
        }
        break;
      case "gone":
      case "pane-restored":
        for (const keyed of standingFacts(this.#view)) this.#put(keyed);
        break;
    }
    this.#waker.schedule();
  }

  /** Tells the person (a desktop notification) that the pane `name` needs them. */
  async #notify(name: string, what: string): Promise<void> {
    await notifyPerson(`${name} ${what}`, this.#options);
  }
}

/**
 * Runs the watcher until the Skiff agent's session ends, there is none, or
 * skiffd does not come back. Returns why it stopped.
 */
export async function runWatcher(options: WatcherOptions): Promise<WatcherStop> {
  return await new Watcher(options).run();
}
