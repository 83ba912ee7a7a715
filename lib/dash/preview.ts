/**
 * The live preview of the selected pane. skiffd already holds every pane's
 * screen; the preview attaches to the selected one as a watcher (`attach`
 * with `watch: true`: the pane keeps its size, and nothing typed or counted
 * comes from it) and parses the stream into a screen of its own, which the
 * dashboard crops into its box, colours included. Nothing is polled: the
 * preview changes only when the pane prints. An exited pane shows its last
 * screen, read once.
 *
 * @module
 */

import { tryConnect } from "../client/connect.ts";
import type { DaemonClient } from "../client/client.ts";
import { Frame, FrameReader } from "../protocol/frames.ts";
import type { ListedPane } from "../protocol/workspace.ts";
import type { Screen } from "../screen/screen.ts";
import { importLater } from "../platform/later.ts";

/**
 * The screen's module (xterm.js, a third of a second to load on a busy
 * machine) loads once, after the first frame is drawn, not before it.
 */
let screenModule: Promise<typeof import("../screen/screen.ts")> | undefined;

/** Starts loading the preview's screen module (the dashboard calls it after its first frame). */
export function preloadScreen(): Promise<typeof import("../screen/screen.ts")> {
  screenModule ??= importLater<typeof import("../screen/screen.ts")>("lib/screen/screen.ts");
  return screenModule;
}

/** Options for {@linkcode PanePreview}. */
export interface PreviewOptions {
  /** skiffd's socket. */
  socket: string;
  /** Called after the preview's screen changed (coalesce the redraws). */
  changed: () => void;
}

/** What the preview follows now. */
interface Target {
  id: string;
  generation: number;
  status: ListedPane["status"];
}

/** The selected pane's screen, followed live. */
export class PanePreview {
  readonly #options: PreviewOptions;
  #target: Target | undefined;
  #screen: Screen | undefined;
  #client: DaemonClient | undefined;
  /** Why the preview has nothing to show, when it has not. */
  #problem: string | undefined;
  /** Bumped at each new target, so late answers for an old one are dropped. */
  #turn = 0;
  /**
   * `starting` (connecting), `live` (following, or an exited pane's last
   * screen shown), `ended` (the stream ended: follow again) or `failed` (wait
   * for {@linkcode PanePreview.retry}).
   */
  #phase: "starting" | "live" | "ended" | "failed" = "ended";

  /** A preview that follows nothing yet. */
  constructor(options: PreviewOptions) {
    this.#options = options;
  }

  /** The id of the pane it shows, if any. */
  get pane(): string | undefined {
    return this.#target?.id;
  }

  /** Why it shows nothing, if it does not. */
  get problem(): string | undefined {
    return this.#problem;
  }

  /**
   * Follows `pane` (or nothing). Called with every listing: it starts over
   * only when the pane, its process or its status changed, or when its
   * stream ended (skiffd reloaded or restarted); a size change resizes.
   */
  follow(pane: ListedPane | null): void {
    if (!pane) return this.#stop();
    const same = this.#target?.id === pane.id && this.#target.generation === pane.generation &&
      this.#target.status === pane.status;
    if (same && this.#phase !== "ended") {
      if (this.#screen && (this.#screen.cols !== pane.cols || this.#screen.rows !== pane.rows)) {
        this.#screen.resize(pane.cols, pane.rows);
        this.#options.changed();
      }
      return;
    }
    this.#stop();
    this.#target = { id: pane.id, generation: pane.generation, status: pane.status };
    this.#phase = "starting";
    const turn = ++this.#turn;
    preloadScreen().then(({ Screen }) => {
      if (turn !== this.#turn) return;
      this.#screen = new Screen(pane.cols, pane.rows, { scrollback: 0, respond: () => {} });
      if (pane.status === "exited") this.#lastScreen(pane, turn);
      else this.#watch(pane, turn);
    });
  }

  /** Tries again after a failure (skiffd is back, the panes were listed again). */
  retry(): void {
    if (this.#phase === "failed") this.#phase = "ended";
  }

  #stop(): void {
    this.#turn++;
    this.#phase = "ended";
    this.#client?.close();
    this.#client = undefined;
    this.#screen?.dispose();
    this.#screen = undefined;
    this.#target = undefined;
    this.#problem = undefined;
  }

  /**
   * A connection for `id` and the pane's ref there: skiffd's, or for a pane
   * of another host (`HOST:ID`) that host's, through its link.
   */
  async #connect(id: string): Promise<{ client: DaemonClient; ref: string } | undefined> {
    if (!id.includes(":")) {
      const client = await tryConnect(this.#options.socket).catch(() => undefined);
      return client && { client, ref: id };
    }
    const { connectPane } = await importLater<typeof import("../hosts/resolve.ts")>(
      "lib/hosts/resolve.ts",
    );
    const connection = await connectPane(id, { start: false, waitMs: 5000 }).catch(() => undefined);
    return connection && { client: connection.client, ref: connection.pane };
  }

  async #watch(pane: ListedPane, turn: number): Promise<void> {
    const connected = await this.#connect(pane.id);
    const client = connected?.client;
    if (turn !== this.#turn) return client?.close();
    if (!client) {
      this.#problem = pane.id.includes(":")
        ? "its host is not answering"
        : "skiffd is not answering";
      this.#phase = "failed";
      return this.#options.changed();
    }
    this.#client = client;
    try {
      await client.call("attach", { pane: connected.ref, watch: true }, { raw: true });
    } catch (error) {
      client.close();
      if (turn !== this.#turn) return;
      this.#problem = (error as Error).message;
      this.#phase = "failed";
      return this.#options.changed();
    }
    if (turn !== this.#turn) return client.close();
    this.#phase = "live";
    const reader = new FrameReader();
    client.onRaw((data) => {
      if (turn !== this.#turn) return;
      if (data === null) {
        // skiffd went (a reload, a restart) or the pane ended: the next listing follows again.
        this.#phase = "ended";
        return;
      }
      let frames;
      try {
        frames = reader.push(data);
      } catch {
        this.#phase = "ended";
        return client.close();
      }
      for (const frame of frames) {
        if (frame.type === Frame.OUTPUT) {
          this.#screen?.write(frame.payload, () => {
            if (turn === this.#turn) this.#options.changed();
          });
        } else if (frame.type === Frame.END) {
          this.#phase = "ended";
        }
      }
    });
  }

  async #lastScreen(pane: ListedPane, turn: number): Promise<void> {
    const connected = await this.#connect(pane.id);
    const client = connected?.client;
    try {
      if (!client) throw new Error("skiffd is not answering");
      const capture = await client.call("pane.capture", { pane: connected.ref, ansi: true });
      if (turn !== this.#turn) return;
      this.#phase = "live";
      const text = capture.lines.join("\r\n");
      this.#screen?.write(new TextEncoder().encode(text), () => {
        if (turn === this.#turn) this.#options.changed();
      });
    } catch (error) {
      if (turn !== this.#turn) return;
      this.#problem = (error as Error).message;
      this.#phase = "failed";
      this.#options.changed();
    } finally {
      client?.close();
    }
  }

  /** The screen cut to `width` × `height`: lines with SGR codes, the last rows in use. */
  lines(width: number, height: number): string[] {
    if (!this.#screen || height <= 0 || width <= 0) return [];
    return this.#screen.cropped(width, height);
  }

  /** Stops following. */
  close(): void {
    this.#stop();
  }
}
