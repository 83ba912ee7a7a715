/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * A pane as a live terminal: xterm.js over the terminal WebSocket, which
 * carries skiffd's attach frames (`lib/protocol/frames.ts`) both ways. The
 * page's terminal takes the pane's size when it opens or gets the focus,
 * and shows the pane at the size another terminal gave it otherwise.
 *
 * @module
 */

import { Terminal } from "@xterm/xterm";
import { FitAddon } from "@xterm/addon-fit";
import { encodeFrame, Frame, FrameReader } from "../lib/protocol/frames.ts";
import type { PaneInfo } from "../lib/protocol/panes.ts";
import type { AttachKey } from "../lib/config/attach_keys.ts";
import { EarlyInput, isAttachKey } from "./early_input.ts";
import { terminalTheme } from "./theme.ts";

/** What the terminal tells the page. */
export interface TerminalHooks {
  /** The pane it attached to. */
  attached(pane: PaneInfo): void;
  /** The pane ended (`exited`, `killed`, …) or the terminal could not attach. */
  ended(why: string): void;
  /** The person pressed the detach key (Ctrl+\ unless `[attach] detach_key` says otherwise). */
  leave(): void;
}

/** One pane in a terminal. */
export class TerminalView {
  /** The xterm.js terminal (the tests read its buffer). */
  readonly term: Terminal;
  readonly #fit = new FitAddon();
  readonly #host: HTMLElement;
  readonly #hooks: TerminalHooks;
  readonly #observer: ResizeObserver;
  readonly #scheme: MediaQueryList;
  #pane: string;
  #ws: WebSocket | undefined;
  #disposed = false;
  #ended = false;
  #retry = 250;
  /** The key that leaves the terminal; the server says which at each attach. */
  #detach: AttachKey = { name: "C-\\", ctrl: "\\" };
  /** What is typed before the first attach; gone after it. */
  #early: EarlyInput | undefined = new EarlyInput();
  /** Bytes typed while the terminal was away (the app's server restarting), not sent. */
  #lost = 0;

  /** Opens `pane` in `host`. */
  constructor(host: HTMLElement, pane: string, hooks: TerminalHooks) {
    this.#host = host;
    this.#pane = pane;
    this.#hooks = hooks;
    this.#scheme = matchMedia("(prefers-color-scheme: dark)");
    this.term = new Terminal({
      scrollback: 10000,
      cursorBlink: true,
      allowProposedApi: true,
      fontFamily: '"JetBrains Mono", "DejaVu Sans Mono", Menlo, Consolas, monospace',
      fontSize: 13,
      theme: terminalTheme(this.#scheme.matches),
    });
    this.term.loadAddon(this.#fit);
    this.term.open(host);
    this.term.attachCustomKeyEventHandler((event) => {
      // Before the attach, the detach key is not known yet: a key that may be it waits.
      if (event.type === "keydown" && this.#early?.holdKey(event)) return false;
      if (event.type === "keydown" && isAttachKey(event, this.#detach)) {
        this.#hooks.leave();
        return false;
      }
      return true;
    });
    this.term.onData((data) => this.#send(Frame.INPUT, new TextEncoder().encode(data)));
    this.term.onBinary((data) =>
      this.#send(Frame.INPUT, Uint8Array.from(data, (c) => c.charCodeAt(0) & 0xff))
    );
    this.term.textarea?.addEventListener("focus", () => this.#takeSize());
    this.#scheme.addEventListener("change", this.#onScheme);
    this.#observer = new ResizeObserver(() => this.#takeSize());
    this.#observer.observe(host);
    this.#safeFit();
    this.#connect();
  }

  #onScheme = () => {
    this.term.options.theme = terminalTheme(this.#scheme.matches);
  };

  #safeFit(): void {
    try {
      if (this.#host.clientWidth > 0 && this.#host.clientHeight > 0) this.#fit.fit();
    } catch {
      // Not laid out yet.
    }
  }

  /** Fits the terminal to its box and gives the pane that size. */
  #takeSize(): void {
    if (this.#disposed) return;
    const before = `${this.term.cols}x${this.term.rows}`;
    this.#safeFit();
    if (
      before !== `${this.term.cols}x${this.term.rows}` ||
      document.activeElement === this.term.textarea
    ) {
      this.#send(Frame.RESIZE, JSON.stringify({ cols: this.term.cols, rows: this.term.rows }));
    }
  }

  #send(type: number, payload: Uint8Array | string): void {
    if (type === Frame.INPUT && this.#early) return this.#early.holdData(payload as Uint8Array);
    if (this.#ws?.readyState === WebSocket.OPEN) this.#ws.send(encodeFrame(type, payload));
    else if (type === Frame.INPUT) this.#lost += (payload as Uint8Array).length;
  }

  /**
   * The terminal ended before it was attached: nothing typed can go in, but a
   * detach key pressed meanwhile (the one known now) still leaves.
   */
  #neverAttached(): void {
    const early = this.#early;
    this.#early = undefined;
    if (early?.release(this.#detach).leave) this.#hooks.leave();
  }

  /** At each attach: what was typed before the first one goes in, and lost typing is said. */
  #attachedNow(): void {
    const early = this.#early;
    this.#early = undefined;
    if (early) {
      const released = early.release(this.#detach);
      for (const data of released.data) this.#send(Frame.INPUT, data);
      this.#lost += released.dropped;
      if (released.leave) this.#hooks.leave();
    }
    if (this.#lost > 0) {
      this.term.write(
        `\r\n\x1b[2m[skiff: ${this.#lost} byte(s) typed while the terminal was away were not sent]` +
          "\x1b[0m\r\n",
      );
      this.#lost = 0;
    }
  }

  #connect(): void {
    const query = new URLSearchParams({
      pane: this.#pane,
      cols: String(this.term.cols),
      rows: String(this.term.rows),
    });
    const ws = new WebSocket(`ws://${location.host}/ws/terminal?${query}`);
    ws.binaryType = "arraybuffer";
    this.#ws = ws;
    const reader = new FrameReader();
    let first = true;
    ws.onmessage = (message) => {
      if (typeof message.data === "string") {
        const info = JSON.parse(message.data);
        if (info.attached) {
          this.#pane = info.attached.id;
          if (info.detach_key) this.#detach = info.detach_key;
          this.#retry = 250;
          if (first) this.term.reset();
          first = false;
          this.#hooks.attached(info.attached);
          this.#attachedNow();
        } else if (info.error) {
          this.#ended = true;
          this.#neverAttached();
          this.#hooks.ended(info.error.message);
        }
        return;
      }
      for (const frame of reader.push(new Uint8Array(message.data))) {
        if (frame.type === Frame.OUTPUT) {
          this.term.write(frame.payload);
        } else if (frame.type === Frame.END) {
          this.#ended = true;
          const { reason } = JSON.parse(new TextDecoder().decode(frame.payload));
          this.#hooks.ended(reason ?? "ended");
        }
      }
    };
    ws.onclose = () => {
      if (this.#disposed || this.#ended) return;
      // The app server went (skiffd restarted) or the page fell behind: open again.
      setTimeout(() => !this.#disposed && this.#connect(), this.#retry);
      this.#retry = Math.min(this.#retry * 2, 5000);
    };
  }

  /** Shows the pane at the size another terminal gave it. */
  follow(cols: number, rows: number): void {
    if (document.activeElement === this.term.textarea) return;
    if (cols !== this.term.cols || rows !== this.term.rows) this.term.resize(cols, rows);
  }

  /** Puts the keyboard in the terminal. */
  focus(): void {
    this.term.focus();
  }

  /** Closes the terminal; the pane keeps running. */
  dispose(): void {
    this.#disposed = true;
    this.#observer.disconnect();
    this.#scheme.removeEventListener("change", this.#onScheme);
    this.#send(Frame.DETACH, "");
    this.#ws?.close();
    this.term.dispose();
  }
}
