/**
 * Waking the Skiff agent: the queued facts go out as one line, typed into
 * the agent's pane only when it is safe (the agent runs, is in front and
 * idle, and no task of the line's pane is being sent), gathered for a
 * moment first so facts that arrive together make one line, and held and
 * tried again while it is not safe. skiffd hears how it went (`watch.report`).
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { DaemonClient } from "../client/client.ts";
import { followedUid } from "./follow.ts";
import { type Fact, joinLines, lineOf } from "./lines.ts";
import type { WakeQueue } from "./queue.ts";
import type { ToldLog } from "./told.ts";
import type { WatchView } from "./view.ts";

/** How soon a held line is tried again. */
export const RETRY_MS = 2000;
/** How long the watcher gathers facts that arrive together into one line. */
export const GATHER_MS = 100;

/** What a {@linkcode Waker} works with: the watcher's queue, memory and view, and skiffd. */
export interface WakerOptions {
  /** The facts waiting to be typed. */
  queue: WakeQueue;
  /** What was told in this run. */
  told: ToldLog;
  /** What the watcher sees. */
  view: WatchView;
  /** Writes one line to the watcher's log. */
  log: (line: string) => void;
  /** Reads the panes and the ledger again. */
  refresh: () => Promise<unknown>;
  /** Calls skiffd on the current connection (throws when there is none). */
  call: () => DaemonClient["call"];
  /** The current connection to skiffd, if any. */
  client: () => DaemonClient | undefined;
  /** Whether the watcher stopped. */
  stopped: () => boolean;
}

/** Types the queued facts into the Skiff agent's pane; see the module's documentation. */
export class Waker {
  readonly #options: WakerOptions;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #flushing = false;
  #again = false;
  #lastHold = "";
  #ok = true;

  /** A waker for the watcher's queue; nothing goes out before {@linkcode Waker.schedule}. */
  constructor(options: WakerOptions) {
    this.#options = options;
  }

  /** Flushes soon, so facts that arrive together go out as one line. */
  schedule(delay = GATHER_MS): void {
    if (this.#options.stopped() || this.#options.queue.size === 0) {
      void this.report();
      return;
    }
    if (this.#flushTimer !== undefined) return;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = undefined;
      this.#flush().catch((error) => this.#options.log(`wake failed: ${error?.message ?? error}`));
    }, delay);
  }

  /** Tells skiffd how the watcher stands, with the last line typed or failed. */
  async report(last?: string): Promise<void> {
    try {
      await this.#options.client()?.call("watch.report", {
        ok: this.#ok,
        last,
        watching: [...this.#options.view.followed.keys()],
        waiting_lines: this.#options.queue.size,
      });
    } catch {
      // skiffd went away; the next connection registers again.
    }
  }

  /** Stops the timers (the watcher stops). */
  close(): void {
    clearTimeout(this.#flushTimer);
    clearTimeout(this.#retryTimer);
  }

  #retry(): void {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.schedule(0);
    }, RETRY_MS);
  }

  #hold(reason: string): void {
    if (reason !== this.#lastHold) {
      this.#options.log(`held ${this.#options.queue.size} line(s): ${reason}`);
    }
    this.#lastHold = reason;
    this.#retry();
    void this.report();
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
        this.schedule(0);
      }
    }
  }

  async #deliver(): Promise<void> {
    const { queue, view, log } = this.#options;
    if (queue.size === 0 || this.#options.stopped()) return;
    await this.#options.refresh();
    const agent = view.agentPane;
    if (!agent) return this.#hold("the Skiff agent has no pane");
    if (agent.status !== "running") return this.#hold("the Skiff agent's pane has exited");
    if (!agent.agent) return this.#hold("a shell is in front of the Skiff agent's pane");
    if (agent.state !== "idle") return this.#hold(`the Skiff agent is ${agent.state}`);
    // The ledger was just read again: a pending task sent meanwhile is not news any more,
    // and a line names the task followed in its pane now.
    const held = new Set<Fact>();
    for (const fact of queue.facts) {
      const followed = view.followed.get(fact.pane);
      // A task of the pane is being sent right now: how that send ends decides the line.
      if (view.beingSent(fact.pane)) {
        held.add(fact);
        continue;
      }
      if (fact.kind === "pending" && !followed?.pending.some((t) => t.uid === fact.pending)) {
        queue.drop(fact.pane);
        log(`dropped: task ${fact.pending} is no longer pending`);
        continue;
      }
      if (followed && fact.kind !== "gone" && fact.kind !== "interrupted") {
        fact.uid = followedUid(followed) ?? fact.uid;
      }
    }
    if (held.size > 0) {
      log(`held ${held.size} line(s) while a task of their pane is being sent`);
      this.#retry();
    }
    const facts = queue.facts.filter((fact) => !held.has(fact));
    if (facts.length === 0) return void this.report();
    const lines = facts.map(lineOf);
    const text = joinLines(lines);
    try {
      await this.#options.call()("pane.send", {
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
        log(`dropped ${done.length} line(s) typed already by an earlier watcher`);
        this.schedule(0);
        return;
      }
      if (error.exit === "NO_TURN") {
        this.#consume(facts);
        this.#ok = false;
        const line =
          `undelivered: typed into ${agent.name} and pressed Enter, but no turn started; ` +
          `Enter is not pressed again: ${text}`;
        log(line);
        await this.report(line);
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
    log(line);
    await this.report(line);
  }

  /** The facts went in (or may have): never type them again in this run. */
  #consume(facts: readonly Fact[]): void {
    const { queue, told, view } = this.#options;
    told.consume(queue, facts, (pane) => view.panes.get(pane)?.unread_reasons ?? []);
  }
}
