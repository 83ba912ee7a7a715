/**
 * Following one pane's screen for a subscribed client: skiffd streams the
 * pane's output to a watching attach (`attach` with `watch: true`: the pane
 * keeps its size, and nothing is typed or counted), so a change is known
 * when the pane prints, with no polling. An attach makes its connection a
 * stream of that pane's frames, so each followed pane has a connection of
 * its own (`open` gives it). When skiffd ends the stream but serves the
 * pane again soon (a reload, a restart), the follow attaches again; when
 * the pane ended, it tells once more and stops.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { DaemonClient } from "../client/client.ts";
import { type AttachEnd, Frame, FrameReader } from "../protocol/frames.ts";

/** How long to wait before attaching again after a stream that said it returns. */
const AGAIN_MS = 200;

/** How many times in a row a follow attaches again before it gives up. */
const TRIES = 50;

/** Follows pane `pane`'s output, calling `changed` when it prints (and when its stream ends). */
export class ScreenFollow {
  readonly #pane: string;
  readonly #open: () => Promise<DaemonClient>;
  readonly #changed: () => void;
  #client: DaemonClient | undefined;
  #closed = false;
  #tries = 0;

  /**
   * Starts following pane `pane` (its id on the skiffd `open` connects to;
   * each call of `open` makes a new connection, the follow's own).
   */
  constructor(pane: string, open: () => Promise<DaemonClient>, changed: () => void) {
    this.#pane = pane;
    this.#open = open;
    this.#changed = changed;
    this.#attach();
  }

  async #attach(): Promise<void> {
    let client: DaemonClient | undefined;
    try {
      client = await this.#open();
      await client.call("attach", { pane: this.#pane, watch: true }, { raw: true });
    } catch (error) {
      client?.close();
      // The pane is gone or ended: nothing more will print.
      const over = error instanceof SkiffError &&
        (error.exit === "NOT_FOUND" || error.exit === "NOT_RUNNING");
      // Else skiffd is not there now (restarting): once more, a while later.
      return this.#again(!over);
    }
    if (this.#closed) return client.close();
    const attached = client;
    this.#client = attached;
    this.#tries = 0;
    const reader = new FrameReader();
    let returning = true;
    attached.onRaw((data) => {
      if (this.#closed) return;
      if (data === null) {
        attached.close();
        return this.#again(returning);
      }
      let frames;
      try {
        frames = reader.push(data);
      } catch {
        return attached.close();
      }
      for (const frame of frames) {
        if (frame.type === Frame.OUTPUT) this.#changed();
        else if (frame.type === Frame.END) {
          const end = JSON.parse(new TextDecoder().decode(frame.payload)) as AttachEnd;
          returning = end.returning === true || end.reason === "reload";
          // The pane exited or went: that is a change of its screen's owner, told once.
          if (!returning) this.#changed();
        }
      }
    });
  }

  #again(returning: boolean): void {
    this.#client = undefined;
    if (this.#closed || !returning || ++this.#tries > TRIES) return;
    setTimeout(() => {
      if (!this.#closed) this.#attach();
    }, AGAIN_MS);
  }

  /** Stops following, and closes its connection. */
  close(): void {
    this.#closed = true;
    this.#client?.close();
    this.#client = undefined;
  }
}
