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
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { DaemonClient } from "../client/client.ts";
import { followEvents } from "../client/follow.ts";
import type { Event } from "../protocol/events.ts";
import type { PaneInfo, UnreadReason } from "../protocol/panes.ts";
import { SKIFF_AGENT_MARK } from "../protocol/sessions.ts";
import { type FollowedPane, followedUid } from "./follow.ts";
import { type Fact, joinLines, lineOf } from "./lines.ts";
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

  constructor(options: WatcherOptions) {
    this.#options = options;
    this.#view = new WatchView(options.ledgerPath);
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

  /** Reads the panes and the ledger again; returns the panes by id. */
  async #refresh(): Promise<Map<string, PaneInfo>> {
    return await this.#view.refresh(this.#call);
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
    const interesting = [
      "turn-start",
      "turn-end",
      "idle-no-turn",
      "waiting",
      "bell",
      "exit",
      "gone",
      "pane-restored",
    ];
    if (!interesting.includes(event.event)) return;
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
