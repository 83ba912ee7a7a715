/**
 * The daemon's event stream: every change worth telling a subscriber, as
 * one JSON object per event.
 *
 * @module
 */

import type { EventMessage } from "../protocol/messages.ts";

/** A function that receives events. */
export type EventSink = (event: EventMessage) => void;

/** Fans events out to subscribers. */
export class EventBus {
  readonly #sinks = new Set<EventSink>();

  /** Adds a subscriber; returns a function that removes it. */
  subscribe(sink: EventSink): () => void {
    this.#sinks.add(sink);
    return () => this.#sinks.delete(sink);
  }

  /** Sends an event to every subscriber. */
  emit(event: string, fields: Record<string, unknown> = {}): void {
    const message: EventMessage = { event, time: new Date().toISOString(), ...fields };
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
