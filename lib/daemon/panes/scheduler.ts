/**
 * Fair parsing of pane output on skiffd's one event loop.
 *
 * While nothing waits, output is parsed as it arrives, for at most
 * {@linkcode SchedulerOptions.turnMs} before the event loop gets a turn:
 * deferring every chunk would cost a lone busy pane a third of its
 * throughput. Past that, or while anything waits, output is queued per pane
 * and parsed in turns of bounded length; between turns the event loop answers
 * requests and reads more output. In a turn, quiet panes (a little output,
 * little of it lately) go first; busy panes then share what is left of the
 * turn in slices, round-robin. A pane whose queue grows past
 * {@linkcode SchedulerOptions.pauseBytes} is paused at its source, so its
 * program blocks on write, as it would under tmux, until its queue has
 * drained. Nothing is dropped or reordered.
 *
 * @module
 */

import { joinBytes } from "../../platform/bytes.ts";

/** Where a queue's output goes, and how to stop and restart its source. */
export interface OutputConsumer {
  /** Parses (and forwards) one slice of output, in order. */
  consume(data: Uint8Array): void;
  /** Stops the source: its program then blocks on write. */
  pause(): void;
  /** Lets the source go on. */
  resume(): void;
  /** Output stopped a while ago: a moment to give memory back. */
  settled?(): void;
}

/** Tuning of {@linkcode OutputScheduler}. */
export interface SchedulerOptions {
  /** Bytes a busy pane parses before the next pane's turn. */
  sliceBytes: number;
  /** Milliseconds of parsing before the event loop gets its turn. */
  turnMs: number;
  /** Pause a source with this much waiting. */
  pauseBytes: number;
  /** Resume it once no more than this waits. */
  resumeBytes: number;
  /** A pane that parsed less than this lately (a decaying count) counts as quiet. */
  quietBytes: number;
  /** How fast that count decays: ms for a factor of e. */
  heatDecayMs: number;
  /** How long all output must have stopped before the queues that ran are told so. */
  settleMs: number;
  /**
   * Runs a turn once the event loop has had its own (answered requests,
   * taken more output). Default: a timer of 0 ms, which Deno gives after
   * about 2 ms; skiffd passes a turn that takes microseconds.
   */
  nextTurn?: (turn: () => void) => void;
  /**
   * Called once the queues that ran were told they settled. It may return
   * how many ms later it wants to be called again (when output is still
   * settled then), or 0.
   */
  onSettled?: () => number | void;
}

/** The defaults: turns short enough for prompt answers, slices big enough for throughput. */
export const DEFAULT_SCHEDULER_OPTIONS: SchedulerOptions = {
  sliceBytes: 8 << 10,
  turnMs: 5,
  pauseBytes: 128 << 10,
  resumeBytes: 64 << 10,
  quietBytes: 32 << 10,
  heatDecayMs: 250,
  settleMs: 2000,
};

/** One pane's waiting output. */
export class OutputQueue {
  readonly #scheduler: OutputScheduler;
  readonly #consumer: OutputConsumer;
  readonly #chunks: Uint8Array[] = [];
  #head = 0;
  #offset = 0;
  #pending = 0;
  #paused = false;
  #closed = false;
  /** Parsing stopped until {@linkcode release} (see {@linkcode hold}). */
  #held = false;
  #heat = 0;
  #heatAt = 0;
  #drained: (() => void)[] = [];
  /** How many times the source was paused. */
  pauses = 0;
  /** Where the queue is listed in its scheduler ("" when nothing waits). */
  listed: "" | "quiet" | "busy" = "";

  /** Made by {@linkcode OutputScheduler.add}. */
  constructor(scheduler: OutputScheduler, consumer: OutputConsumer) {
    this.#scheduler = scheduler;
    this.#consumer = consumer;
  }

  /** Bytes waiting to be parsed. */
  get pending(): number {
    return this.#pending;
  }

  /** Whether the source is paused. */
  get paused(): boolean {
    return this.#paused;
  }

  /** The consumer, for the scheduler. */
  get consumer(): OutputConsumer {
    return this.#consumer;
  }

  /** Takes output from the source: parses it now when nothing waits, else queues it. */
  push(chunk: Uint8Array): void {
    if (this.#closed || chunk.length === 0) return;
    if (this.#pending === 0 && !this.#held && this.#scheduler.direct(this)) {
      this.#consumer.consume(chunk);
      this.#heat = this.#heatNow(performance.now()) + chunk.length;
      return;
    }
    this.queue(chunk);
  }

  /**
   * Queues output that must wait its turn even when nothing else waits:
   * output an upgrade handed over unparsed, which the new skiffd parses in
   * turns rather than before it answers.
   */
  queue(chunk: Uint8Array): void {
    if (this.#closed || chunk.length === 0) return;
    this.#chunks.push(chunk);
    this.#pending += chunk.length;
    if (!this.#paused && this.#pending > this.#scheduler.options.pauseBytes) {
      this.#paused = true;
      this.pauses++;
      this.#consumer.pause();
    }
    if (!this.#held) this.#scheduler.wake(this);
  }

  /**
   * Stops parsing: what comes waits in the queue (its source is paused as
   * usual once too much waits) until {@linkcode release}.
   */
  hold(): void {
    this.#held = true;
    this.#scheduler.forget(this);
  }

  /** Parses again after {@linkcode hold}, what waited first. */
  release(): void {
    if (!this.#held) return;
    this.#held = false;
    if (this.#pending > 0) this.#scheduler.wake(this);
  }

  /**
   * Every byte that waits, in order, leaving it waiting (one waiting chunk
   * comes back as it is, not copied: read it before the queue parses on).
   */
  waiting(): Uint8Array {
    const chunks = this.#chunks.slice(this.#head);
    if (chunks.length > 0) chunks[0] = chunks[0].subarray(this.#offset);
    return joinBytes(chunks);
  }

  /** Whether this queue counts as quiet: little waits and little was parsed lately. */
  quiet(now: number): boolean {
    return this.#pending <= this.#scheduler.options.sliceBytes &&
      this.#heatNow(now) < this.#scheduler.options.quietBytes;
  }

  #heatNow(now: number): number {
    const elapsed = now - this.#heatAt;
    if (elapsed > 0) {
      this.#heat *= Math.exp(-elapsed / this.#scheduler.options.heatDecayMs);
      this.#heatAt = now;
    }
    return this.#heat;
  }

  /** Parses up to `budget` bytes, in order; returns how many it parsed. */
  parse(budget: number, now: number): number {
    let done = 0;
    while (done < budget && this.#head < this.#chunks.length && !this.#closed) {
      const chunk = this.#chunks[this.#head];
      const take = Math.min(chunk.length - this.#offset, budget - done);
      const slice = this.#offset === 0 && take === chunk.length
        ? chunk
        : chunk.subarray(this.#offset, this.#offset + take);
      this.#offset += take;
      if (this.#offset === chunk.length) {
        this.#head++;
        this.#offset = 0;
      }
      this.#pending -= take;
      done += take;
      this.#consumer.consume(slice);
    }
    if (this.#head === this.#chunks.length || this.#head > 256) {
      this.#chunks.splice(0, this.#head);
      this.#head = 0;
    }
    this.#heat = this.#heatNow(now) + done;
    if (this.#paused && !this.#closed && this.#pending <= this.#scheduler.options.resumeBytes) {
      this.#paused = false;
      this.#consumer.resume();
    }
    if (this.#pending === 0) this.#settle();
    return done;
  }

  /** Runs `callback` once nothing waits (at once when nothing does). */
  whenDrained(callback: () => void): void {
    if (this.#pending === 0 || this.#closed) callback();
    else this.#drained.push(callback);
  }

  #settle(): void {
    const callbacks = this.#drained;
    this.#drained = [];
    for (const callback of callbacks) callback();
  }

  /** Drops what waits and leaves the scheduler. */
  close(): void {
    this.#closed = true;
    this.#chunks.length = 0;
    this.#head = 0;
    this.#offset = 0;
    this.#pending = 0;
    this.#scheduler.forget(this);
    this.#settle();
  }
}

/** Parses the output of many panes fairly. */
export class OutputScheduler {
  /** The tuning. */
  readonly options: SchedulerOptions;
  #quiet: OutputQueue[] = [];
  #busy: OutputQueue[] = [];
  #ran = new Set<OutputQueue>();
  #next = 0;
  #scheduled = false;
  #settleTimer: ReturnType<typeof setTimeout> | undefined;
  #lastOutput = 0;
  /** When parsing as output arrives began, since the event loop last had a turn. */
  #directSince = -1;

  readonly #nextTurn: (turn: () => void) => void;

  /** Makes a scheduler; `options` override {@linkcode DEFAULT_SCHEDULER_OPTIONS}. */
  constructor(options: Partial<SchedulerOptions> = {}) {
    this.options = { ...DEFAULT_SCHEDULER_OPTIONS, ...options };
    this.#nextTurn = this.options.nextTurn ?? ((turn) => setTimeout(turn, 0));
  }

  /** Adds a source of output. */
  add(consumer: OutputConsumer): OutputQueue {
    return new OutputQueue(this, consumer);
  }

  /**
   * Whether `queue`'s new output may be parsed at once: nothing waits and the
   * event loop had a turn lately. When it may not, a turn is asked for.
   */
  direct(queue: OutputQueue): boolean {
    const now = performance.now();
    this.#lastOutput = now;
    this.#ran.add(queue);
    this.#armSettle();
    if (this.busy || this.#scheduled) return false;
    if (this.#directSince < 0) this.#directSince = now;
    if (now - this.#directSince < this.options.turnMs) return true;
    // Parsed long enough in a row: let the event loop in before more.
    this.#scheduled = true;
    this.#nextTurn(() => this.#turn());
    return false;
  }

  /** Lists a queue that has output waiting, and asks for a turn. */
  wake(queue: OutputQueue): void {
    this.#lastOutput = performance.now();
    this.#ran.add(queue);
    this.#armSettle();
    if (queue.listed === "") {
      if (queue.quiet(performance.now())) {
        queue.listed = "quiet";
        this.#quiet.push(queue);
      } else {
        queue.listed = "busy";
        this.#busy.push(queue);
      }
    }
    if (!this.#scheduled) {
      this.#scheduled = true;
      // Not setImmediate: Deno may run a chain of immediates for about a second
      // before it looks at sockets (see `nextTurn`).
      this.#nextTurn(() => this.#turn());
    }
  }

  /** Removes a queue. */
  forget(queue: OutputQueue): void {
    if (queue.listed === "quiet") this.#quiet = this.#quiet.filter((q) => q !== queue);
    if (queue.listed === "busy") {
      const index = this.#busy.indexOf(queue);
      if (index !== -1) {
        this.#busy.splice(index, 1);
        if (index < this.#next) this.#next--;
      }
    }
    queue.listed = "";
    this.#ran.delete(queue);
  }

  /** Whether output waits anywhere. */
  get busy(): boolean {
    return this.#quiet.length > 0 || this.#busy.length > 0;
  }

  #turn(): void {
    this.#scheduled = false;
    this.#directSince = -1;
    const start = performance.now();
    const deadline = start + this.options.turnMs;
    // Quiet panes first: a keystroke's echo must not wait behind a flood.
    const quiet = this.#quiet;
    this.#quiet = [];
    for (const queue of quiet) {
      queue.listed = "";
      queue.parse(this.options.sliceBytes, start);
      this.#ran.add(queue);
      // A pane that turns out to be starting a flood waits with the busy ones.
      if (queue.pending > 0) {
        queue.listed = "busy";
        this.#busy.push(queue);
      }
    }
    // Busy panes share the rest of the turn, a slice each, round-robin; at
    // least one slice a turn, however long the quiet ones took.
    let now = performance.now();
    let first = true;
    while (this.#busy.length > 0 && (first || now < deadline)) {
      first = false;
      if (this.#next >= this.#busy.length) this.#next = 0;
      const queue = this.#busy[this.#next];
      queue.parse(this.options.sliceBytes, now);
      this.#ran.add(queue);
      if (queue.pending === 0) {
        this.#busy.splice(this.#next, 1);
        queue.listed = "";
      } else {
        this.#next++;
      }
      now = performance.now();
    }
    this.#lastOutput = performance.now();
    if (this.busy) {
      this.#scheduled = true;
      this.#nextTurn(() => this.#turn());
    }
  }

  /** Tells the queues that ran, once no output came for `settleMs`. */
  #armSettle(wait = this.options.settleMs): void {
    if (this.#settleTimer !== undefined) return;
    this.#settleTimer = setTimeout(() => {
      this.#settleTimer = undefined;
      const quietFor = performance.now() - this.#lastOutput;
      if (this.busy || quietFor < this.options.settleMs) {
        this.#armSettle(Math.max(1, this.options.settleMs - quietFor));
        return;
      }
      const ran = [...this.#ran];
      this.#ran.clear();
      for (const queue of ran) queue.consumer.settled?.();
      const again = this.options.onSettled?.();
      if (again) this.#armSettle(again);
    }, wait);
    Deno.unrefTimer(this.#settleTimer);
  }

  /** Stops the settle timer (a turn already due still runs). */
  close(): void {
    clearTimeout(this.#settleTimer);
    this.#settleTimer = undefined;
  }
}

let shared: OutputScheduler | undefined;

/**
 * The scheduler every pane of this process shares (one event loop, one
 * scheduler), made with `options` on first use.
 */
export function sharedScheduler(options: Partial<SchedulerOptions> = {}): OutputScheduler {
  shared ??= new OutputScheduler(options);
  return shared;
}
