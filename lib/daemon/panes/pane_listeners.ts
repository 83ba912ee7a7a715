/**
 * The terminals attached to a pane (and previews that only follow it): the
 * parsed output goes to them with the terminal's queries taken out, and a
 * switch of screens goes as a redraw, so what each one shows matches the
 * pane's screen.
 *
 * @module
 */

import { joinBytes } from "../../platform/bytes.ts";
import { findScreenSwitch } from "../../screen/alt_switch.ts";
import { QueryFilter } from "../../screen/query_filter.ts";

const encoder = new TextEncoder();

/** How an attachment ends, besides its reason. */
export interface AttachEndDetails {
  /** A skiffd serves the pane again soon (a restart): the terminal may attach again. */
  returning?: boolean;
}

/** Receives a pane's output after the screen has parsed it. */
export interface PaneListener {
  /** Only follows the output (a preview): not counted as an attached terminal. */
  watching?: boolean;
  /** Bytes for an attached terminal (queries removed). */
  output(data: Uint8Array): void;
  /** The pane ended or went away. */
  end(reason: string, details?: AttachEndDetails): void;
}

/** The listeners of one pane. */
export class PaneListeners {
  readonly #listeners = new Set<PaneListener>();
  readonly #filter = new QueryFilter();

  /** Adds `listener`; returns false when it listened already. */
  add(listener: PaneListener): boolean {
    if (this.#listeners.has(listener)) return false;
    this.#listeners.add(listener);
    return true;
  }

  /** Removes `listener`. */
  delete(listener: PaneListener): void {
    this.#listeners.delete(listener);
  }

  /** How many terminals are attached (previews do not count). */
  get attached(): number {
    let count = 0;
    for (const listener of this.#listeners) if (!listener.watching) count++;
    return count;
  }

  /**
   * Sends output the screen has just parsed; `redraw` gives the screen as
   * it is now. With no listener the bytes are not even filtered, as the
   * filter's state only matters to what is forwarded.
   */
  forward(data: Uint8Array, redraw: () => string): void {
    if (this.#listeners.size === 0) return;
    let visible = this.#filter.filter(data);
    // A switch of screens goes to attached terminals as a redraw of the screen now,
    // which also covers the rest of these bytes.
    const cut = findScreenSwitch(visible);
    if (cut !== -1) {
      visible = joinBytes([visible.subarray(0, cut), encoder.encode(redraw())]);
    }
    if (visible.length > 0) {
      for (const listener of this.#listeners) listener.output(visible);
    }
  }

  /** Tells every listener that the pane ended, and lets them go. */
  endAll(reason: string, details: AttachEndDetails = {}): void {
    for (const listener of this.#listeners) listener.end(reason, details);
    this.#listeners.clear();
  }
}
