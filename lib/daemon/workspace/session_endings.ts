/**
 * Telling once that a session ended: its last pane was killed, or its last
 * process exited. A stopping skiffd's own ending of processes is not news.
 *
 * @module
 */

import type { EventBus, SavedSession } from "../records/mod.ts";
import type { Pane } from "../panes/mod.ts";

/** Options for {@linkcode SessionEndings}. */
export interface SessionEndingsOptions {
  /** The event stream. */
  events: EventBus;
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
}

/** What {@linkcode SessionEndings} knows, for a new skiffd after an upgrade. */
export interface EndedSessions {
  /** Sessions that told their end. */
  ended: string[];
  /** Sessions removed with their last pane whose end is still to be told. */
  removed: SavedSession[];
}

/** Which sessions have ended in this run, and the sessions removed until their end is told. */
export class SessionEndings {
  readonly #options: SessionEndingsOptions;
  /** Sessions that have sent `session-ended` in this run. */
  readonly #ended = new Set<string>();
  /** Sessions removed with their last pane, kept until their `session-ended` is sent. */
  readonly #removed = new Map<string, SavedSession>();

  /** Tells through `options.events`. */
  constructor(options: SessionEndingsOptions) {
    this.#options = options;
  }

  /** What it knows, for {@linkcode SessionEndings.recall} in a new skiffd. */
  save(): EndedSessions {
    return { ended: [...this.#ended], removed: [...this.#removed.values()] };
  }

  /** Takes up what a skiffd before this one knew. */
  recall(known: EndedSessions): void {
    for (const id of known.ended) this.#ended.add(id);
    for (const session of known.removed) this.#removed.set(session.id, session);
  }

  /** A session runs a process again: it can end again. */
  running(session: string): void {
    this.#ended.delete(session);
  }

  /** A session went with its last pane; it is still told about until its end is sent. */
  removed(session: SavedSession): void {
    this.#removed.set(session.id, session);
  }

  /**
   * Sends `session-ended` once when session `id` has no running pane left
   * among `panes`; `known` is the session, while it is still saved.
   */
  mayHaveEnded(
    id: string,
    why: "killed" | "exited",
    context: { panes: Iterable<Pane>; known?: SavedSession },
  ): void {
    if (this.#ended.has(id)) return;
    for (const pane of context.panes) {
      if (pane.saved.session === id && pane.status === "running") return;
    }
    const known = context.known ?? this.#removed.get(id);
    if (!known) return;
    this.#ended.add(id);
    this.#removed.delete(id);
    this.#options.log(`session ${id} (${known.name}) ended: ${why}`);
    this.#options.events.emit("session-ended", {
      session: id,
      session_name: known.name,
      marks: { ...known.marks },
      why,
    });
  }
}
