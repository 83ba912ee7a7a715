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
 * skiffd holds (`host_follow.ts`): one follower per host of open tasks,
 * taken up when the ledger gets such a task and let go when none is left.
 * Their lines name the pane as `HOST:NAME`; a host that cannot be reached is
 * one line, and one more when it is back.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { DaemonClient } from "../client/client.ts";
import { followEvents } from "../client/follow.ts";
import type { Event } from "../protocol/events.ts";
import type { PaneInfo, UnreadReason } from "../protocol/panes.ts";
import { SKIFF_AGENT_MARK } from "../protocol/sessions.ts";
import { ledgerStamp } from "../ledger/mod.ts";
import { type FollowedPane, followedUid } from "./follow.ts";
import { HostFollower } from "./host_follow.ts";
import { type Fact, hostFactKey, joinLines, lineOf } from "./lines.ts";
import { type NotifyOutcome, notifyPerson } from "./notify.ts";
import { WakeQueue } from "./queue.ts";
import { ToldLog } from "./told.ts";
import { WatchView } from "./view.ts";

/** When this process started: a watcher that reconnects to a new skiffd keeps it. */
const STARTED = new Date(performance.timeOrigin).toISOString();

/** How long the watcher looks for skiffd again after it went away. */
export const RECONNECT_MS = 10 * 60_000;
/** How soon a held line is tried again. */
export const RETRY_MS = 2000;
/** How often the watcher looks whether the ledger changed (for tasks on other hosts). */
export const LEDGER_LOOK_MS = 1000;
/** How long the watcher gathers facts that arrive together into one line. */
export const GATHER_MS = 100;

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

/** The pane events that may change what the watcher says. */
const INTERESTING = new Set([
  "turn-start",
  "turn-end",
  "idle-no-turn",
  "waiting",
  "bell",
  "exit",
  "gone",
  "pane-restored",
]);

/** What a host's follower hands on: the events above, and `seen`. */
const FROM_HOSTS = new Set([...INTERESTING, "seen"]);

/** Why the watcher stopped. */
export type WatcherStop = "session-ended" | "no-session" | "daemon-stopped" | "daemon-gone";

/** The unread reasons that are news for the agent, and the fact each brings. */
const LINE_REASONS: Partial<Record<UnreadReason, Fact["kind"]>> = {
  "turn-end": "idle",
  "idle-no-turn": "idle",
  "exit": "exit",
  "agent-exit": "agent-exit",
};

class Watcher {
  readonly #options: WatcherOptions;
  readonly #queue = new WakeQueue();
  readonly #told = new ToldLog();
  readonly #view: WatchView;
  #client: DaemonClient | undefined;
  #stop: WatcherStop | undefined;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #flushing = false;
  #again = false;
  #lastHold = "";
  #ok = true;
  /** One follower per host of open tasks. */
  readonly #followers = new Map<string, HostFollower>();
  /** The hosts whose link this watcher's connection holds. */
  #held = new Set<string>();
  /** What the agent was last told of each host: unreachable, or back. */
  readonly #hostTold = new Map<string, "host-down" | "host-up">();
  #ledgerLook: ReturnType<typeof setInterval> | undefined;
  #ledgerStamp = "";

  constructor(options: WatcherOptions) {
    this.#options = options;
    this.#view = new WatchView(
      options.ledgerPath,
      () =>
        [...this.#followers.values()].map((f) => ({
          host: f.host,
          state: f.state,
          panes: f.panes,
        })),
    );
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
        this.#held = new Set();
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
      clearTimeout(this.#flushTimer);
      clearTimeout(this.#retryTimer);
      clearInterval(this.#ledgerLook);
      for (const follower of this.#followers.values()) follower.stop();
      this.#followers.clear();
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

  /** Reads the panes and the ledger again; returns the panes by key. */
  async #refresh(): Promise<Map<string, PaneInfo>> {
    const panes = await this.#view.refresh(this.#call);
    this.#followHosts();
    return panes;
  }

  /**
   * Follows every host of open tasks, and no other: a follower for each,
   * its link held by this watcher's connection. The ledger is followed too,
   * so a task added for another host is taken up at once (no local event
   * would tell).
   */
  #followHosts(): void {
    // The ledger is looked at once a second (its files' stamps, without opening it): a task
    // added for another host makes no event here. The system's file events are not used: a
    // watch of the folder opens and closes the ledger's files, which takes SQLite's locks
    // away from this process's connection.
    this.#ledgerLook ??= setInterval(() => {
      let stamp: string;
      try {
        stamp = ledgerStamp(this.#options.ledgerPath());
      } catch {
        return;
      }
      if (stamp === this.#ledgerStamp) return;
      this.#ledgerStamp = stamp;
      void this.#refresh().catch(() => {});
    }, LEDGER_LOOK_MS);
    const wanted = this.#view.hosts;
    for (const [host, follower] of this.#followers) {
      if (wanted.has(host)) continue;
      follower.stop();
      this.#followers.delete(host);
      this.#options.log(`host ${host}: no open task there; not following it`);
    }
    for (const host of wanted.keys()) {
      if (!this.#held.has(host) && this.#client) {
        this.#held.add(host);
        // Held while this connection lasts; the link is made in the background.
        this.#client.call("hosts.link", { host, hold: true, wait_ms: 0 }).catch(() => {});
      }
      if (this.#followers.has(host)) continue;
      const follower = new HostFollower({
        host,
        log: this.#options.log,
        interesting: FROM_HOSTS,
        event: (event) => this.#guarded(() => this.#onEvent(event)),
        connected: () => this.#guarded(() => this.#hostConnected(host)),
        down: (why) => void this.#guarded(() => this.#hostDown(host, why)),
      });
      this.#followers.set(host, follower);
      this.#options.log(`host ${host}: following its panes of open tasks`);
      follower.start();
    }
  }

  /** Runs `work`; a local skiffd that went meanwhile is the main loop's to handle. */
  async #guarded(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof SkiffError) || error.exit !== "DAEMON") {
        this.#options.log(`host event failed: ${(error as Error)?.message ?? error}`);
      }
    }
  }

  /** A host of open tasks cannot be reached: one line, until it is back. */
  async #hostDown(host: string, why: string): Promise<void> {
    this.#options.log(`host ${host} is unreachable: ${why}`);
    if (this.#hostTold.get(host) === "host-down") return;
    const key = hostFactKey(host);
    const queued = this.#queue.facts.find((f) => f.pane === key);
    if (queued?.kind === "host-up") {
      // It went again before the agent heard it was back: nothing changed for the agent.
      this.#queue.drop(key);
      return;
    }
    await this.#call("watch.forget", { pane: key }).catch(() => {});
    this.#put({
      pane: key,
      name: host,
      uid: "",
      kind: "host-down",
      tasks: this.#view.hosts.get(host) ?? 0,
    }, `host-down:${host}:${Date.now()}`);
    this.#schedule();
  }

  /** A host's follower is connected (again): back, if the agent heard it was not; then its news. */
  async #hostConnected(host: string): Promise<void> {
    const key = hostFactKey(host);
    const queued = this.#queue.facts.find((f) => f.pane === key);
    if (queued?.kind === "host-down") {
      // Back before the agent heard it went: nothing to tell.
      this.#queue.drop(key);
      this.#options.log(`host ${host} is back before its line went out; dropped it`);
    } else if (this.#hostTold.get(host) === "host-down") {
      await this.#call("watch.forget", { pane: key }).catch(() => {});
      await this.#refresh();
      this.#put({
        pane: key,
        name: host,
        uid: "",
        kind: "host-up",
        tasks: this.#view.hosts.get(host) ?? 0,
      }, `host-up:${host}:${Date.now()}`);
      this.#options.log(`host ${host} is back`);
    }
    await this.#relist(`host ${host} followed`);
  }

  /** Puts a fact in the queue unless it was told already in this run under `key`. */
  #put(fact: Fact, key: string): void {
    this.#told.put(this.#queue, fact, key);
  }

  /** The idle fact for a followed pane: the pending form when a task waits there. */
  #idleFact(followed: FollowedPane): Fact | undefined {
    const uid = followedUid(followed);
    if (!uid) return undefined;
    const pending = this.#view.waiting(followed)[0];
    if (pending && !this.#told.pendingTold(followed.pane)) {
      return {
        pane: followed.pane,
        name: followed.name,
        uid,
        kind: "pending",
        pending: pending.uid,
      };
    }
    return { pane: followed.pane, name: followed.name, uid, kind: "idle" };
  }

  /** Facts that need no event: interrupted and gone tasks, once per run. */
  #standingFacts(): void {
    for (const followed of this.#view.followed.values()) {
      for (const task of followed.interrupted) {
        this.#put({
          pane: followed.pane,
          name: followed.name,
          uid: task.uid,
          kind: "interrupted",
        }, `interrupted:${task.uid}`);
      }
      if (followed.gone) {
        const uid = followedUid(followed)!;
        this.#put({ pane: followed.pane, name: followed.name, uid, kind: "gone" }, `gone:${uid}`);
      }
    }
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
    for (const followed of this.#view.followed.values()) {
      const pane = panes.get(followed.pane);
      if (!pane) continue;
      // What the agent was told in this run is not news again, only what came since.
      const told = this.#told.reasons(followed.pane);
      const reason = [...pane.unread_reasons].reverse().find((r) =>
        LINE_REASONS[r] && !told.includes(r)
      );
      if (reason) {
        const kind = LINE_REASONS[reason]!;
        const fact = kind === "idle"
          ? this.#idleFact(followed)
          : { pane: followed.pane, name: followed.name, uid: followedUid(followed)!, kind };
        if (fact) this.#put(fact, `unread:${followed.pane}:${pane.unread_reasons.join(",")}`);
      } else if (pane.state === "idle" && this.#view.waiting(followed).length > 0) {
        const fact = this.#idleFact(followed);
        if (fact?.kind === "pending") this.#put(fact, `pending:${followed.pane}:${fact.pending}`);
      }
    }
    // A restart or a removal came after whatever the unread flags tell: it goes last, so
    // it replaces an older fact about the same pane.
    this.#standingFacts();
    this.#schedule();
  }

  async #onEvent(event: Event): Promise<void> {
    if (event.event === "resync") return await this.#relist(`resync (${event.reason})`);
    if (event.event === "seen") {
      this.#told.seen(event.pane);
      // A pane of another host: skiffd here never sees it marked seen, so it is told.
      if (event.pane.includes(":")) await this.#call("watch.forget", { pane: event.pane });
      return;
    }
    if (event.event === "host") {
      this.#followers.get(event.host)?.wake();
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
      this.#schedule();
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
        const fact = this.#idleFact(followed);
        if (fact) this.#put(fact, `event:${key}`);
        break;
      }
      case "exit":
        if (uid) {
          const kind = event.what === "agent" ? "agent-exit" : "exit";
          this.#put({ pane: followed.pane, name: followed.name, uid, kind }, `event:${key}`);
        }
        break;
      case "gone":
      case "pane-restored":
        this.#standingFacts();
        break;
    }
    this.#schedule();
  }

  async #notify(name: string, what: string): Promise<void> {
    await notifyPerson(`${name} ${what}`, this.#options);
  }

  /** Flushes soon, so facts that arrive together go out as one line. */
  #schedule(delay = GATHER_MS): void {
    if (this.#stop || this.#queue.size === 0) {
      void this.#report();
      return;
    }
    if (this.#flushTimer !== undefined) return;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = undefined;
      this.#flush().catch((error) => this.#options.log(`wake failed: ${error?.message ?? error}`));
    }, delay);
  }

  #retry(): void {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#schedule(0);
    }, RETRY_MS);
  }

  #hold(reason: string): void {
    if (reason !== this.#lastHold) this.#options.log(`held ${this.#queue.size} line(s): ${reason}`);
    this.#lastHold = reason;
    this.#retry();
    void this.#report();
  }

  async #report(last?: string): Promise<void> {
    try {
      await this.#client?.call("watch.report", {
        ok: this.#ok,
        last,
        watching: [...this.#view.followed.keys()],
        waiting_lines: this.#queue.size,
      });
    } catch {
      // skiffd went away; the next connection registers again.
    }
  }

  async #flush(): Promise<void> {
    if (this.#flushing) {
      this.#again = true;
      return;
    }
    this.#flushing = true;
    try {
      await this.#deliver();
    } finally {
      this.#flushing = false;
      if (this.#again) {
        this.#again = false;
        this.#schedule(0);
      }
    }
  }

  async #deliver(): Promise<void> {
    if (this.#queue.size === 0 || this.#stop) return;
    await this.#refresh();
    const agent = this.#view.agentPane;
    if (!agent) return this.#hold("the Skiff agent has no pane");
    if (agent.status !== "running") return this.#hold("the Skiff agent's pane has exited");
    if (!agent.agent) return this.#hold("a shell is in front of the Skiff agent's pane");
    if (agent.state !== "idle") return this.#hold(`the Skiff agent is ${agent.state}`);
    // The ledger was just read again: a pending task sent meanwhile is not news any more,
    // and a line names the task followed in its pane now.
    const held = new Set<Fact>();
    for (const fact of this.#queue.facts) {
      const followed = this.#view.followed.get(fact.pane);
      // A task of the pane is being sent right now: how that send ends decides the line.
      if (this.#view.beingSent(fact.pane)) {
        held.add(fact);
        continue;
      }
      if (fact.kind === "pending" && !followed?.pending.some((t) => t.uid === fact.pending)) {
        this.#queue.drop(fact.pane);
        this.#options.log(`dropped: task ${fact.pending} is no longer pending`);
        continue;
      }
      if (followed && fact.kind !== "gone" && fact.kind !== "interrupted") {
        fact.uid = followedUid(followed) ?? fact.uid;
      }
    }
    if (held.size > 0) {
      this.#options.log(`held ${held.size} line(s) while a task of their pane is being sent`);
      this.#retry();
    }
    const facts = this.#queue.facts.filter((fact) => !held.has(fact));
    if (facts.length === 0) return void this.#report();
    const lines = facts.map(lineOf);
    const text = joinLines(lines);
    try {
      await this.#call("pane.send", {
        pane: agent.id,
        text,
        enter: true,
        since_inputs: agent.person_inputs,
        // skiffd remembers these as Enter goes in: if this watcher dies before it hears
        // back, the next one is refused them instead of typing them again.
        tells: facts.map((fact, i) => ({ pane: fact.pane, line: lines[i] })),
      });
    } catch (error) {
      if (!(error instanceof SkiffError)) throw error;
      if (error.exit === "CONFLICT" && error.details?.reason === "told") {
        const told = new Set(error.details.lines as string[]);
        const done = facts.filter((_, i) => told.has(lines[i]));
        this.#consume(done);
        this.#options.log(`dropped ${done.length} line(s) typed already by an earlier watcher`);
        this.#schedule(0);
        return;
      }
      if (error.exit === "NO_TURN") {
        this.#consume(facts);
        this.#ok = false;
        const line =
          `undelivered: typed into ${agent.name} and pressed Enter, but no turn started; ` +
          `Enter is not pressed again: ${text}`;
        this.#options.log(line);
        await this.#report(line);
        return;
      }
      if (error.exit === "DAEMON" || error.exit === "ERROR") throw error;
      if (error.exit === "NOT_DELIVERED") this.#ok = false;
      this.#hold(error.message);
      return;
    }
    this.#consume(facts);
    this.#ok = true;
    this.#lastHold = "";
    const line = `woke ${agent.name}: ${text}`;
    this.#options.log(line);
    await this.#report(line);
  }

  /** The facts went in (or may have): never type them again in this run. */
  #consume(facts: readonly Fact[]): void {
    for (const fact of facts) {
      if (fact.kind === "host-down" || fact.kind === "host-up") {
        this.#hostTold.set(fact.name, fact.kind);
      }
    }
    this.#told.consume(
      this.#queue,
      facts,
      (pane) => this.#view.panes.get(pane)?.unread_reasons ?? [],
    );
  }
}

/**
 * Runs the watcher until the Skiff agent's session ends, there is none, or
 * skiffd does not come back. Returns why it stopped.
 */
export async function runWatcher(options: WatcherOptions): Promise<WatcherStop> {
  return await new Watcher(options).run();
}
