/**
 * The daemon's event stream: every change worth telling a subscriber, as
 * one JSON object per event. The catalogue of events is in
 * `lib/protocol/events.ts`.
 *
 * @module
 */

import type { Event, EventFields, EventName } from "../protocol/events.ts";

/** A function that receives events. */
export type EventSink = (event: Event) => void;

/** Fans events out to subscribers. */
export class EventBus {
  readonly #sinks = new Set<EventSink>();

  /** Adds a subscriber; returns a function that removes it. */
  subscribe(sink: EventSink): () => void {
    this.#sinks.add(sink);
    return () => this.#sinks.delete(sink);
  }

  /** Sends event `name` with its fields to every subscriber. */
  emit<N extends EventName>(name: N, fields: EventFields<N>): void {
    const message = { event: name, time: new Date().toISOString(), ...fields } as Event;
    for (const sink of this.#sinks) {
      try {
        sink(message);
      } catch {
        // A broken subscriber must not stop the others.
      }
    }
  }

  /** How many subscribers there are. */
  get size(): number {
    return this.#sinks.size;
  }
}
