/**
 * A live pane: one process on a PTY, its screen, and the terminals attached
 * to it.
 *
 * Output waits in a queue until the scheduler gives the pane its turn (see
 * `scheduler.ts`); a pane with much waiting is paused at its PTY. Each slice
 * is parsed by the screen and only then forwarded to attached terminals, so a
 * redraw taken at any moment plus the bytes forwarded after it always equal
 * the real screen.
 *
 * @module
 */

import { type Pty, type PtyExit, spawnPty } from "../platform/pty.ts";
import { ptyReader } from "../platform/pty_reader.ts";
import {
  foregroundGroup,
  type ForegroundProcess,
  foregroundProcess,
  processCwd,
} from "../platform/proc.ts";
import { QueryFilter } from "../screen/query_filter.ts";
import { findScreenSwitch } from "../screen/alt_switch.ts";
import { joinBytes } from "../platform/bytes.ts";
import { type SavedScreen, Screen } from "../screen/screen.ts";
import type { ScreenState } from "../screen/screen_state.ts";
import type { PaneResume } from "../protocol/panes.ts";
import { IdleCollector } from "../platform/heap.ts";
import { nextIoTurn } from "../platform/io_turn.ts";
import { type OutputQueue, type OutputScheduler, sharedScheduler } from "./scheduler.ts";
import type { SavedPane } from "./workspace.ts";

const idleCollector = new IdleCollector();

/**
 * Starts what panes read and parse with (the thread that reads terminals,
 * the event loop's short turn), so that the first pane's output does not
 * wait for them; `log` gets the line that says the reader thread failed.
 */
export function preparePanes(options: { log: (line: string) => void }): void {
  ptyReader(options);
  nextIoTurn(() => {});
}

/** The scheduler of this process's panes; when their output settles, memory goes back. */
function panesScheduler(): OutputScheduler {
  return sharedScheduler({ onSettled: () => idleCollector.idle(), nextTurn: nextIoTurn });
}

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
export interface PaneStartOptions {
  /** The program and arguments. */
  argv: string[];
  /** The full environment. */
  env: Record<string, string>;
  /** Scrollback lines. */
  scrollback: number;
  /** Callbacks. */
  hooks: PaneHooks;
  /** Who parses the output (default: the process's shared scheduler). */
  scheduler?: OutputScheduler;
  /**
   * Escape sequences written to the screen before the process prints
   * anything: the history of the process before it (see `historyAbove`).
   */
  prelude?: string;
}

/** Options for {@linkcode Pane.exited}. */
export interface ExitedPaneOptions {
  /** Scrollback lines. */
  scrollback: number;
  /** How the process ended. */
  exit: PtyExit;
  /** When it ended (ms since the epoch). */
  exitedAt: number;
  /** Its last screen, if it was saved. */
  screen?: SavedScreen;
}

/** What {@linkcode Pane.adopt} takes over. */
export interface PaneAdoptOptions {
  /** The process's terminal, or none when it had exited. */
  pty?: Pty;
  /** The screen as saved. */
  screen: ScreenState;
  /** How the process ended, when it had. */
  exit?: PtyExit;
  /** When it ended (ms since the epoch). */
  exitedAt?: number;
  /** What the pane counted. */
  counts: {
    stateSince: number;
    personTypedAt: number;
    personInputs: number;
    outputBytes?: number;
    outputAt?: number;
  };
  /** Scrollback lines. */
  scrollback: number;
  /** Callbacks. */
  hooks: PaneHooks;
  /** Who parses the output (default: the process's shared scheduler). */
  scheduler?: OutputScheduler;
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
  #pty: Pty | undefined;
  #pid = 0;
  #frozen = false;
  #disposed = false;
  #hooks: PaneHooks | undefined;
  #held: Uint8Array[] | undefined;
  #output: OutputQueue | undefined;
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
  readonly #listeners = new Set<PaneListener>();
  readonly #filter = new QueryFilter();

  private constructor(saved: SavedPane, screen: Screen) {
    this.saved = saved;
    this.screen = screen;
  }

  /** Starts the pane's process. `saved.generation` must already be set. */
  static async start(saved: SavedPane, options: PaneStartOptions): Promise<Pane> {
    const encoder = new TextEncoder();
    // The screen answers queries through the pane, which needs the screen first.
    const ref: { pane?: Pane } = {};
    const screen = new Screen(saved.cols, saved.rows, {
      scrollback: options.scrollback,
      respond: (answer) => ref.pane?.write(encoder.encode(answer)),
    });
    if (options.prelude) {
      screen.writeSync(encoder.encode(options.prelude));
      screen.markOldAbove();
    }
    const pane = new Pane(saved, screen);
    ref.pane = pane;
    pane.#hooks = options.hooks;
    screen.onTitle((title) => options.hooks.title(pane, title));
    screen.onBell(() => options.hooks.bell(pane));
    const [program, ...args] = options.argv;
    const pty = await spawnPty(program, args, {
      cwd: saved.cwd,
      env: options.env,
      cols: saved.cols,
      rows: saved.rows,
    });
    pane.#wire(pty, options);
    return pane;
  }

  /** Reads `pty` into the screen through the scheduler, and tells its exit. */
  #wire(pty: Pty, options: Pick<PaneStartOptions, "hooks" | "scheduler">): void {
    this.#pty = pty;
    this.#pid = pty.pid;
    const output = (options.scheduler ?? panesScheduler()).add({
      consume: (data) => this.#consume(data),
      pause: () => pty.pause(),
      // A frozen pane (an upgrade under way) stays paused until it thaws.
      resume: () => {
        if (!this.#frozen) pty.resume();
      },
      settled: () => {
        if (!this.#disposed) this.screen.compact();
      },
    });
    this.#output = output;
    pty.onData((data) => output.push(data));
    pty.onExit((exit) => {
      this.#pty = undefined;
      // The screen is final only once what waits is parsed.
      output.whenDrained(() => {
        this.status = "exited";
        this.exit = exit;
        this.exitedAt = Date.now();
        this.stateSince = this.exitedAt;
        if (this.#disposed) return;
        options.hooks.exited(this, exit);
      });
    });
  }

  /**
   * A pane whose process had exited before skiffd restarted: no process, its
   * last screen as it was, and its exit.
   */
  static exited(saved: SavedPane, options: ExitedPaneOptions): Pane {
    const size = options.screen ?? saved;
    const screen = new Screen(size.cols, size.rows, {
      scrollback: options.scrollback,
      respond: () => {},
    });
    if (options.screen) screen.restore(options.screen);
    // A screen saved before the pane's last resize takes the pane's size now.
    if (screen.cols !== saved.cols || screen.rows !== saved.rows) {
      screen.resize(saved.cols, saved.rows);
    }
    const pane = new Pane(saved, screen);
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
    return this.#pid;
  }

  #consume(data: Uint8Array): void {
    if (this.#disposed) return;
    this.screen.writeSync(data);
    this.outputBytes += data.length;
    this.outputAt = Date.now();
    if (this.#listeners.size > 0) {
      let visible = this.#filter.filter(data);
      // A switch of screens goes to attached terminals as a redraw of the screen now,
      // which also covers the rest of these bytes.
      const cut = findScreenSwitch(visible);
      if (cut !== -1) {
        visible = joinBytes([visible.subarray(0, cut), encoder.encode(this.screen.redraw())]);
      }
      if (visible.length > 0) {
        for (const listener of this.#listeners) listener.output(visible);
      }
    }
    this.#hooks?.activity(this);
  }

  /** Bytes of output waiting to be parsed. */
  get pendingOutput(): number {
    return this.#output?.pending ?? 0;
  }

  /** Whether the PTY is paused because much output waits. */
  get outputPaused(): boolean {
    return this.#output?.paused ?? false;
  }

  /** Writes input bytes to the process. Returns false when it no longer runs. */
  write(data: Uint8Array): boolean {
    if (!this.#pty) return false;
    if (data.length > 0) this.#pty.write(data);
    return true;
  }

  /**
   * Writes input from a person or a program. A person's keys are counted,
   * and while the input is held (during a guarded send) they wait in a
   * queue and go in after it.
   */
  input(data: Uint8Array, source: InputSource): boolean {
    if (!this.#pty) return false;
    this.inputAt = Date.now();
    this.#hooks?.input(this, data, source);
    if (source === "person") {
      this.personTypedAt = Date.now();
      this.saved.used_at = this.personTypedAt;
      this.personInputs++;
      if (this.#held) {
        this.#held.push(data.slice());
        return true;
      }
    }
    return this.write(data);
  }

  /** Holds a person's input until the returned function is called, which sends what waited. */
  hold(): () => void {
    if (this.#held) throw new Error("input is already held");
    this.#held = [];
    return () => {
      const queued = this.#held ?? [];
      this.#held = undefined;
      for (const data of queued) this.write(data);
    };
  }

  /** Whether input is held. */
  get held(): boolean {
    return this.#held !== undefined;
  }

  /** Changes the size of the PTY and the screen. */
  resize(cols: number, rows: number): boolean {
    if (cols === this.saved.cols && rows === this.saved.rows) return false;
    this.saved.cols = cols;
    this.saved.rows = rows;
    this.screen.resize(cols, rows);
    this.#pty?.resize(cols, rows);
    // The screen reflowed: it is news for whoever keeps a copy of it.
    this.#hooks?.activity(this);
    return true;
  }

  /**
   * Adds an attached terminal and returns the redraw it should show first,
   * with `scrollback` lines of history above the screen.
   */
  attach(listener: PaneListener, scrollback = 0): string {
    if (!listener.watching && !this.#listeners.has(listener)) this.saved.used_at = Date.now();
    this.#listeners.add(listener);
    return this.screen.redraw({ scrollback });
  }

  /** Removes an attached terminal. */
  detach(listener: PaneListener): void {
    this.#listeners.delete(listener);
  }

  /** How many terminals are attached. */
  get attached(): number {
    let count = 0;
    for (const listener of this.#listeners) if (!listener.watching) count++;
    return count;
  }

  /** Tells every attached terminal that the pane ended, and lets them go. */
  endAttachments(reason: string, details: AttachEndDetails = {}): void {
    for (const listener of this.#listeners) listener.end(reason, details);
    this.#listeners.clear();
  }

  /** The process in front of the terminal, when the platform can tell. */
  foreground(): ForegroundProcess | undefined {
    return this.#pty ? foregroundProcess(this.#pid) : undefined;
  }

  /** Reads the process's working folder; updates the saved cwd. Returns true if it changed. */
  refreshCwd(): boolean {
    if (!this.#pty) return false;
    const cwd = processCwd(this.#pid);
    if (!cwd || cwd === this.saved.cwd) return false;
    this.saved.cwd = cwd;
    return true;
  }

  /** Sends a signal to the process. */
  kill(signal = "SIGHUP"): void {
    try {
      this.#pty?.kill(signal);
    } catch {
      // Already gone.
    }
  }

  /**
   * Kills the pane's process group and the group in front of its terminal,
   * so that children which ignore SIGHUP go too.
   */
  killGroups(): void {
    if (this.#pid <= 0) return;
    const groups = new Set([this.#pid, foregroundGroup(this.#pid) ?? this.#pid]);
    for (const group of groups) {
      try {
        Deno.kill(-group, "SIGKILL");
      } catch {
        // Gone already.
      }
    }
  }

  /**
   * A pane a skiffd before this one ran (`skiff daemon upgrade`): its
   * process goes on under `pty` (absent once it exited), its screen is
   * rebuilt from the saved state, and what it counted goes on. It starts
   * frozen: reading starts at {@linkcode Pane.thaw}, and output the process
   * wrote meanwhile waited in the kernel.
   */
  static adopt(saved: SavedPane, options: PaneAdoptOptions): Pane {
    const ref: { pane?: Pane } = {};
    const screen = new Screen(options.screen.cols, options.screen.rows, {
      scrollback: options.scrollback,
      respond: (answer) => ref.pane?.write(encoder.encode(answer)),
    });
    screen.restoreState(options.screen);
    const pane = new Pane(saved, screen);
    ref.pane = pane;
    pane.#hooks = options.hooks;
    screen.onTitle((title) => options.hooks.title(pane, title));
    screen.onBell(() => options.hooks.bell(pane));
    pane.stateSince = options.counts.stateSince;
    pane.personTypedAt = options.counts.personTypedAt;
    pane.personInputs = options.counts.personInputs;
    pane.outputBytes = options.counts.outputBytes ?? 0;
    pane.outputAt = options.counts.outputAt ?? 0;
    if (options.pty) {
      // Held until the new skiffd commits: its owner thaws it then.
      pane.#frozen = true;
      pane.#wire(options.pty, options);
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
    this.#frozen = true;
    if (!this.#pty) return true;
    this.#pty.pause();
    return this.#pty.fd !== undefined;
  }

  /** Reads output again after {@linkcode Pane.freeze}. */
  thaw(): void {
    if (!this.#frozen) return;
    this.#frozen = false;
    if (this.#pty && !(this.#output?.paused ?? false)) this.#pty.resume();
  }

  /** Parses every byte of output that waits, now. */
  drainOutput(): void {
    this.#output?.parse(Number.MAX_SAFE_INTEGER, performance.now());
  }

  /** The PTY master a frozen pane hands over, while its process runs. */
  get handoffFd(): number | undefined {
    return this.#pty?.fd;
  }

  /** Frees the screen. */
  dispose(): void {
    this.endAttachments("killed");
    this.#disposed = true;
    this.#output?.close();
    this.screen.dispose();
  }
}
