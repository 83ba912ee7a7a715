/**
 * The daemon's event stream: every change worth telling a subscriber, as
 * one JSON object per event, numbered within the daemon's run. A bounded
 * backlog lets a subscriber that reconnects ask for what it missed; when the
 * backlog cannot say, it gets a `resync` event instead of a silent gap. The
 * catalogue of events is in `lib/protocol/events.ts`.
 *
 * @module
 */

import type { EventCursor } from "../../protocol/daemon.ts";
import type { Event, EventFields, EventName, ResyncEvent } from "../../protocol/events.ts";

/** A function that receives events. */
export type EventSink = (event: Event) => void;

/** How many recent events the backlog keeps. */
export const EVENT_BACKLOG = 4096;

/** A bus's run as saved by {@linkcode EventBus.save}. */
export interface SavedEvents {
  /** The run's id. */
  run: string;
  /** The number of its last event. */
  seq: number;
  /** Its recent events, oldest first. */
  backlog: Event[];
}

/** Options for {@linkcode EventBus.subscribe}. */
export interface SubscribeOptions {
  /** Send the events after this place first (or a `resync` when they are not known). */
  after?: EventCursor;
}

/** Fans events out to subscribers, and keeps the recent ones. */
export class EventBus {
  /** This daemon run's id: a new one at each start. */
  readonly run: string;
  readonly #sinks = new Set<EventSink>();
  readonly #backlog: Event[] = [];
  readonly #limit: number;
  #seq = 0;

  /**
   * Makes a bus for a new run; `backlog` is how many events it keeps. With
   * `from`, it goes on with a run saved by {@linkcode EventBus.save} (a new
   * skiffd after an upgrade): the same run, numbers and recent events, so
   * followers resume with nothing missed and nothing told twice.
   */
  constructor(options: { run?: string; backlog?: number; from?: SavedEvents } = {}) {
    this.run = options.from?.run ?? options.run ?? crypto.randomUUID().slice(0, 8);
    this.#limit = options.backlog ?? EVENT_BACKLOG;
    if (options.from) {
      this.#seq = options.from.seq;
      this.#backlog.push(...options.from.backlog.slice(-this.#limit));
    }
  }

  /** The run, its last number and the recent events, for {@linkcode EventBus} `from`. */
  save(): SavedEvents {
    return { run: this.run, seq: this.#seq, backlog: [...this.#backlog] };
  }

  /** The place of the last event sent. */
  cursor(): EventCursor {
    return { run: this.run, seq: this.#seq };
  }

  /**
   * Adds a subscriber; returns a function that removes it. With `after`,
   * the events since that place (and a `resync` first when some are not
   * known) go to the sink before any new one.
   */
  subscribe(sink: EventSink, options: SubscribeOptions = {}): () => void {
    if (options.after) {
      for (const event of this.#since(options.after)) this.#deliver(sink, event);
    }
    this.#sinks.add(sink);
    return () => this.#sinks.delete(sink);
  }

  #since(after: EventCursor): Event[] {
    const oldest = this.#backlog[0]?.seq ?? this.#seq + 1;
    if (after.run !== this.run) {
      return [this.#resync("new-run", oldest - 1), ...this.#backlog];
    }
    if (after.seq >= this.#seq) return [];
    if (after.seq + 1 < oldest) return [this.#resync("missed", oldest - 1), ...this.#backlog];
    return this.#backlog.filter((event) => event.seq > after.seq);
  }

  #resync(reason: ResyncEvent["reason"], seq: number): ResyncEvent {
    return { event: "resync", time: new Date().toISOString(), run: this.run, seq, reason };
  }

  /** Numbers event `name` with its fields and sends it to every subscriber. */
  emit<N extends EventName>(name: N, fields: EventFields<N>): void {
    const message = {
      event: name,
      time: new Date().toISOString(),
      run: this.run,
      seq: ++this.#seq,
      ...fields,
    } as Event;
    this.#backlog.push(message);
    if (this.#backlog.length > this.#limit) this.#backlog.shift();
    for (const sink of this.#sinks) this.#deliver(sink, message);
  }

  #deliver(sink: EventSink, event: Event): void {
    try {
      sink(event);
    } catch {
      // A broken subscriber must not stop the others.
    }
  }

  /** How many subscribers there are. */
  get size(): number {
    return this.#sinks.size;
  }
}
