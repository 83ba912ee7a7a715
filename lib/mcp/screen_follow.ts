/**
 * Following one pane's screen for a subscribed client: skiffd streams the
 * pane's output to a watching attach (`attach` with `watch: true`: the pane
 * keeps its size, and nothing is typed or counted), so a change is known
 * when the pane prints, with no polling. When skiffd ends the stream but
 * serves the pane again soon (a reload, a restart), the follow attaches
 * again; when the pane ended, it tells once more and stops.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { connectPane } from "../hosts/resolve.ts";
import type { PaneConnection } from "../hosts/resolve.ts";
import { type AttachEnd, Frame, FrameReader } from "../protocol/frames.ts";

/** How long to wait before attaching again after a stream that said it returns. */
const AGAIN_MS = 200;

/** How many times in a row a follow attaches again before it gives up. */
const TRIES = 50;

/** Follows pane `ref`'s output, calling `changed` when it prints (and when its stream ends). */
export class ScreenFollow {
  readonly #ref: string;
  readonly #changed: () => void;
  #connection: PaneConnection | undefined;
  #closed = false;
  #tries = 0;

  /** Starts following pane `ref` (`PANE` or `HOST:PANE`). */
  constructor(ref: string, changed: () => void) {
    this.#ref = ref;
    this.#changed = changed;
    this.#attach();
  }

  async #attach(): Promise<void> {
    let connection: PaneConnection;
    try {
      connection = await connectPane(this.#ref, { start: false, pane: false });
      await connection.client.call("attach", { pane: connection.pane, watch: true }, {
        raw: true,
      });
    } catch (error) {
      // The pane is gone or ended: nothing more will print.
      const over = error instanceof SkiffError &&
        (error.exit === "NOT_FOUND" || error.exit === "NOT_RUNNING");
      // Else skiffd is not there now (restarting): once more, a while later.
      return this.#again(!over);
    }
    if (this.#closed) return connection.close();
    this.#connection = connection;
    this.#tries = 0;
    const reader = new FrameReader();
    let returning = true;
    connection.client.onRaw((data) => {
      if (this.#closed) return;
      if (data === null) {
        connection.close();
        return this.#again(returning);
      }
      let frames;
      try {
        frames = reader.push(data);
      } catch {
        return connection.close();
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
    this.#connection = undefined;
    if (this.#closed || !returning || ++this.#tries > TRIES) return;
    setTimeout(() => {
      if (!this.#closed) this.#attach();
    }, AGAIN_MS);
  }

  /** Stops following. */
  close(): void {
    this.#closed = true;
    this.#connection?.close();
    this.#connection = undefined;
  }
}
