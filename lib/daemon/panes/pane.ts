/**
 * A live pane: one process on a PTY (see `pane_process.ts`), its screen,
 * and the terminals attached to it (see `pane_listeners.ts`).
 *
 * Each slice of output is parsed by the screen and only then forwarded to
 * attached terminals, so a redraw taken at any moment plus the bytes
 * forwarded after it always equal the real screen.
 *
 * @module
 */

import { type Pty, type PtyExit, spawnPty } from "../../platform/pty.ts";
import type { ForegroundProcess } from "../../platform/proc.ts";
import { Screen, type ScreenOptions } from "../../screen/screen.ts";
import type { PaneResume } from "../../protocol/panes.ts";
import type { AdoptedPaneState, ExitedPaneOptions, PaneStartSpec } from "./pane_options.ts";
import type { SavedPane } from "../records/mod.ts";
import { type AttachEndDetails, type PaneListener, PaneListeners } from "./pane_listeners.ts";
import { PaneProcess } from "./pane_process.ts";
import { exitedScreen, InputHold, startingScreen } from "./pane_start.ts";

const encoder = new TextEncoder();

/** Callbacks from a pane to its owner. */
export interface PaneHooks {
  /** The process exited. */
  exited(pane: Pane, exit: PtyExit): void;
  /** The title changed. */
  title(pane: Pane, title: string): void;
  /** The bell rang. */
  bell(pane: Pane): void;
  /** The screen changed (output was parsed). */
  activity(pane: Pane): void;
  /** Input went in: from a person (an attached terminal or the app) or a program. */
  input(pane: Pane, data: Uint8Array, source: InputSource): void;
}

/** Who an input comes from. */
export type InputSource = "person" | "program";

/** Options for {@linkcode Pane.start}. */
export interface PaneStartOptions extends PaneStartSpec {
  /** Callbacks. */
  hooks: PaneHooks;
}

/** What {@linkcode Pane.adopt} takes over. */
export interface PaneAdoptOptions extends AdoptedPaneState {
  /** Callbacks. */
  hooks: PaneHooks;
}

/** A pane's process status. */
export type PaneStatus = "running" | "exited";

/** A running or exited pane. */
export class Pane {
  /** The saved record; skiffd writes it to the workspace. */
  readonly saved: SavedPane;
  /** The screen model. */
  readonly screen: Screen;
  /** Whether the process runs. */
  status: PaneStatus = "running";
  /** How the process ended, once it has. */
  exit: PtyExit | undefined;
  /** When the process ended (ms since the epoch). */
  exitedAt: number | undefined;
  readonly #process = new PaneProcess();
  #disposed = false;
  /** The screen waits to be built, and the output is not read meanwhile. */
  #deferred = false;

  #hooks: PaneHooks | undefined;
  readonly #hold = new InputHold();
  /** When the pane's state last changed (ms since the epoch): its start until then. */
  stateSince = Date.now();
  /** What the last restore did about the pane's agent, in this run of skiffd. */
  resume: PaneResume | undefined;
  /** Bytes of output the process printed (parsed so far). */
  outputBytes = 0;
  /** When the process last printed (ms since the epoch), or 0. */
  outputAt = 0;
  /** When a person last typed (ms since the epoch), or 0. */
  personTypedAt = 0;
  /** When anyone (a person or a program, such as `skiff keys`) last typed, or 0. */
  inputAt = 0;
  /** Counts inputs from a person; a guarded send can refuse when it moved after its check. */
  personInputs = 0;
  readonly #listeners = new PaneListeners();

  private constructor(saved: SavedPane, screen: Screen) {
    this.saved = saved;
    this.screen = screen;
  }

  /** Starts the pane's process. `saved.generation` must already be set. */
  static async start(saved: SavedPane, options: PaneStartOptions): Promise<Pane> {
    const deferred = options.deferScreen === true && options.prelude !== undefined;
    const pane = Pane.#live(saved, options, (o) => startingScreen(saved, options, o));
    const [program, ...args] = options.argv;
    const pty = await spawnPty(program, args, {
      cwd: saved.cwd,
      env: options.env,
      cols: saved.cols,
      rows: saved.rows,
      held: deferred,
    });
    pane.#wire(pty, { ...options, frozen: deferred });
    if (deferred) {
      pane.#deferred = true;
      // Its output is read once its screen is there to take it.
      pane.screen.onWake(() => {
        if (!pane.#deferred) return;
        pane.#deferred = false;
        pane.#process.thaw();
      });
    }
    return pane;
  }

  /** Whether the pane's screen waits to be built, and its output with it (see `deferScreen`). */
  get deferred(): boolean {
    return this.#deferred;
  }

  /** Builds a deferred screen now, and reads the output that waited for it. */
  bringScreen(): void {
    if (this.#deferred) this.screen.wake();
  }

  /**
   * A pane whose screen answers the process's queries and tells `hooks` of
   * titles and bells; `make` makes the screen (and fills it), before any hook.
   */
  static #live(
    saved: SavedPane,
    options: { scrollback: number; hooks: PaneHooks },
    make: (options: ScreenOptions) => Screen,
  ): Pane {
    // The screen answers queries through the pane, which needs the screen first.
    const ref: { pane?: Pane } = {};
    const screen = make({
      scrollback: options.scrollback,
      respond: (answer) => ref.pane?.write(encoder.encode(answer)),
    });
    const pane = new Pane(saved, screen);
    ref.pane = pane;
    pane.#hooks = options.hooks;
    screen.onTitle((title) => options.hooks.title(pane, title));
    screen.onBell(() => options.hooks.bell(pane));
    return pane;
  }

  /** Reads `pty` into the screen through the scheduler, and tells its exit. */
  #wire(
    pty: Pty,
    options: Pick<PaneStartOptions, "hooks" | "scheduler"> & { frozen?: boolean },
  ): void {
    this.#process.wire(pty, {
      scheduler: options.scheduler,
      frozen: options.frozen,
      consume: (data) => this.#consume(data),
      settled: () => {
        if (!this.#disposed) this.screen.compact();
      },
      exited: (exit) => {
        this.status = "exited";
        this.exit = exit;
        this.exitedAt = Date.now();
        this.stateSince = this.exitedAt;
        if (this.#disposed) return;
        options.hooks.exited(this, exit);
      },
    });
  }

  /**
   * A pane whose process had exited before skiffd restarted: no process, its
   * last screen as it was, and its exit.
   */
  static exited(saved: SavedPane, options: ExitedPaneOptions): Pane {
    const pane = new Pane(saved, exitedScreen(saved, options));
    pane.status = "exited";
    pane.exit = options.exit;
    pane.exitedAt = options.exitedAt;
    pane.stateSince = options.exitedAt;
    return pane;
  }

  /** The pane's id. */
  get id(): string {
    return this.saved.id;
  }

  /** The pane's name. */
  get name(): string {
    return this.saved.name;
  }

  /** The process id (0 before start). */
  get pid(): number {
    return this.#process.pid;
  }

  #consume(data: Uint8Array): void {
    if (this.#disposed) return;
    this.screen.writeSync(data);
    this.outputBytes += data.length;
    this.outputAt = Date.now();
    this.#listeners.forward(data, () => this.screen.redraw());
    this.#hooks?.activity(this);
  }

  /** Bytes of output waiting to be parsed. */
  get pendingOutput(): number {
    return this.#process.pendingOutput;
  }

  /** Whether the PTY is paused because much output waits. */
  get outputPaused(): boolean {
    return this.#process.outputPaused;
  }

  /** Writes input bytes to the process. Returns false when it no longer runs. */
  write(data: Uint8Array): boolean {
    return this.#process.write(data);
  }

  /**
   * Writes input from a person or a program. A person's keys are counted,
   * and while the input is held (during a guarded send) they wait in a
   * queue and go in after it.
   */
  input(data: Uint8Array, source: InputSource): boolean {
    if (!this.#process.running) return false;
    // What is typed echoes at once, not when the restore gets to this pane.
    this.bringScreen();
    this.inputAt = Date.now();
    this.#hooks?.input(this, data, source);
    if (source === "person") {
      this.personTypedAt = Date.now();
      this.saved.used_at = this.personTypedAt;
      this.personInputs++;
      if (this.#hold.keep(data)) return true;
    }
    return this.write(data);
  }

  /** Holds a person's input until the returned function is called, which sends what waited. */
  hold(): () => void {
    return this.#hold.start((data) => this.write(data));
  }

  /** Whether input is held. */
  get held(): boolean {
    return this.#hold.active;
  }

  /** Changes the size of the PTY and the screen. */
  resize(cols: number, rows: number): boolean {
    if (cols === this.saved.cols && rows === this.saved.rows) return false;
    this.saved.cols = cols;
    this.saved.rows = rows;
    this.screen.resize(cols, rows);
    this.#process.resize(cols, rows);
    // The screen reflowed: it is news for whoever keeps a copy of it.
    this.#hooks?.activity(this);
    return true;
  }

  /**
   * Adds an attached terminal and returns the redraw it should show first,
   * with `scrollback` lines of history above the screen.
   */
  attach(listener: PaneListener, scrollback = 0): string {
    if (this.#listeners.add(listener) && !listener.watching) this.saved.used_at = Date.now();
    return this.screen.redraw({ scrollback });
  }

  /** Removes an attached terminal. */
  detach(listener: PaneListener): void {
    this.#listeners.delete(listener);
  }

  /** How many terminals are attached. */
  get attached(): number {
    return this.#listeners.attached;
  }

  /** Tells every attached terminal that the pane ended, and lets them go. */
  endAttachments(reason: string, details: AttachEndDetails = {}): void {
    this.#listeners.endAll(reason, details);
  }

  /** The process in front of the terminal, when the platform can tell. */
  foreground(): ForegroundProcess | undefined {
    return this.#process.foreground();
  }

  /** Reads the process's working folder; updates the saved cwd. Returns true if it changed. */
  refreshCwd(): boolean {
    const cwd = this.#process.freshCwd(Math.max(this.inputAt, this.outputAt));
    if (!cwd || cwd === this.saved.cwd) return false;
    this.saved.cwd = cwd;
    return true;
  }

  /** Sends a signal to the process. */
  kill(signal = "SIGHUP"): void {
    this.#process.kill(signal);
  }

  /**
   * Kills the pane's process group and the group in front of its terminal,
   * so that children which ignore SIGHUP go too.
   */
  killGroups(): void {
    this.#process.killGroups();
  }

  /**
   * A pane a skiffd before this one ran (`skiff daemon upgrade`): its
   * process goes on under `pty` (absent once it exited), its screen is
   * rebuilt from the saved state, and what it counted goes on. It starts
   * frozen: reading starts at {@linkcode Pane.thaw}, and output the process
   * wrote meanwhile waited in the kernel.
   */
  static adopt(saved: SavedPane, options: PaneAdoptOptions): Pane {
    const { asleep } = options;
    // A screen handed over asleep stays asleep: nothing is parsed until it is used.
    const state = options.screen;
    const pane = Pane.#live(saved, options, (o) => {
      if (asleep) {
        return Screen.sleeping(state, asleep.summary, {
          ...o,
          packer: asleep.packer,
          packedVt: asleep.packedVt,
        });
      }
      if (options.historyAside) return Screen.withHistoryAside(state, options.historyAside, o);
      const screen = new Screen(state.cols, state.rows, o);
      screen.restoreState(state);
      return screen;
    });
    pane.stateSince = options.counts.stateSince;
    pane.personTypedAt = options.counts.personTypedAt;
    pane.personInputs = options.counts.personInputs;
    pane.outputBytes = options.counts.outputBytes ?? 0;
    pane.outputAt = options.counts.outputAt ?? 0;
    if (options.pty) {
      // Held until the new skiffd commits: its owner thaws it then.
      pane.#wire(options.pty, { ...options, frozen: true });
      // Output the skiffd before read and did not parse goes first.
      if (options.waiting) pane.#process.queueOutput(options.waiting);
    } else {
      pane.status = "exited";
      pane.exit = options.exit ?? { exitCode: 0, signal: 0, unknown: true };
      pane.exitedAt = options.exitedAt ?? Date.now();
    }
    return pane;
  }

  /**
   * Stops reading the process's output, and keeps it stopped until
   * {@linkcode Pane.thaw}: the output waits in the kernel (an upgrade hands
   * the terminal over meanwhile). Returns false when the pane cannot be
   * handed over: its output is read where a pause does not stop all reading.
   */
  freeze(): boolean {
    // Handed over frozen, its screen as it is; the new skiffd reads it once it takes it over.
    this.#deferred = false;
    return this.#process.freeze();
  }

  /**
   * Stops reading and parsing the output until {@linkcode Pane.thaw}, the
   * screen as it is: an upgrade's check runs without the floods taking the
   * cores. Returns false as {@linkcode Pane.freeze} does.
   */
  holdOutput(): boolean {
    return this.#process.hold();
  }

  /** Whether the process prints faster than its screen is parsed at once (a flood). */
  get flooding(): boolean {
    return this.status === "running" && this.#process.flooding;
  }

  /** Reads output again after {@linkcode Pane.freeze} or {@linkcode Pane.holdOutput}. */
  thaw(): void {
    this.#process.thaw();
  }

  /** Parses every byte of output that waits, now. */
  drainOutput(): void {
    this.#process.drain();
  }

  /** The output that waits to be parsed (it goes on waiting), which an upgrade hands over as it is. */
  waitingOutput(): Uint8Array {
    return this.#process.waitingOutput();
  }

  /** The PTY master a frozen pane hands over, while its process runs. */
  get handoffFd(): number | undefined {
    return this.#process.fd;
  }

  /** Frees the screen. */
  dispose(): void {
    this.endAttachments("killed");
    this.#disposed = true;
    this.#process.close();
    this.screen.dispose();
  }
}
