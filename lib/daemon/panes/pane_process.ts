/**
 * A pane's process on its PTY: the queue its output waits in until the
 * scheduler gives the pane its turn (a pane with much waiting is paused at
 * its PTY), input, size, signals, what the platform tells of it, and the
 * freeze that holds its output in the kernel while an upgrade hands the
 * terminal over.
 *
 * @module
 */

import type { Pty, PtyExit } from "../../platform/pty.ts";
import { ptyReader } from "../../platform/pty_reader.ts";
import {
  foregroundGroup,
  type ForegroundProcess,
  ForegroundReader,
  processCwd,
} from "../../platform/proc.ts";
import { IdleCollector } from "../../platform/heap.ts";
import { nextIoTurn } from "../../platform/io_turn.ts";
import { type OutputQueue, type OutputScheduler, sharedScheduler } from "./scheduler.ts";

const idleCollector = new IdleCollector();
/** The longest a quiet pane's folder goes without being read again. */
const CWD_STALE_MS = 10_000;

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

/** What {@linkcode PaneProcess.wire} calls back. */
export interface WireOptions {
  /** Who parses the output (default: the process's shared scheduler). */
  scheduler?: OutputScheduler;
  /** Starts frozen (see {@linkcode PaneProcess.freeze}): reading starts at the thaw. */
  frozen?: boolean;
  /** Parses a slice of output, in the pane's turn. */
  consume(data: Uint8Array): void;
  /** No output waits any longer. */
  settled(): void;
  /** The process exited and every byte it wrote is parsed. */
  exited(exit: PtyExit): void;
}

/** The process of one pane, while it runs. */
export class PaneProcess {
  #pty: Pty | undefined;
  #pid = 0;
  readonly #front = new ForegroundReader();
  #frozen = false;
  #output: OutputQueue | undefined;
  /** When the working folder was last read (ms since the epoch), or 0. */
  #cwdReadAt = 0;

  /** The process id (0 before start; kept after the exit). */
  get pid(): number {
    return this.#pid;
  }

  /** Whether the process runs. */
  get running(): boolean {
    return this.#pty !== undefined;
  }

  /** Reads `pty` through the scheduler, and tells its exit once its output is parsed. */
  wire(pty: Pty, options: WireOptions): void {
    this.#pty = pty;
    this.#pid = pty.pid;
    if (options.frozen) this.#frozen = true;
    const output = (options.scheduler ?? panesScheduler()).add({
      consume: (data) => options.consume(data),
      pause: () => pty.pause(),
      // A frozen pane (an upgrade under way) stays paused until it thaws.
      resume: () => {
        if (!this.#frozen) pty.resume();
      },
      settled: () => options.settled(),
    });
    this.#output = output;
    pty.onData((data) => output.push(data));
    pty.onExit((exit) => {
      this.#pty = undefined;
      // The screen is final only once what waits is parsed.
      output.whenDrained(() => options.exited(exit));
    });
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

  /** Changes the size of the PTY. */
  resize(cols: number, rows: number): void {
    this.#pty?.resize(cols, rows);
  }

  /** The process in front of the terminal, when the platform can tell. */
  foreground(): ForegroundProcess | undefined {
    return this.#pty ? this.#front.read(this.#pid) : undefined;
  }

  /** The process's working folder, while it runs and the platform can tell. */
  cwd(): string | undefined {
    return this.#pty ? processCwd(this.#pid) : undefined;
  }

  /**
   * The working folder, read again unless nothing happened in the pane
   * (`activeAt`: its last input or output) since the last read, which was
   * less than a while ago: a shell changes folder when it runs something,
   * and a listing of a thousand panes read a thousand links in /proc.
   */
  freshCwd(activeAt: number): string | undefined {
    const now = Date.now();
    if (activeAt < this.#cwdReadAt && now - this.#cwdReadAt < CWD_STALE_MS) return undefined;
    this.#cwdReadAt = now;
    return this.cwd();
  }

  /** Sends a signal to the process. */
  kill(signal: string): void {
    try {
      this.#pty?.kill(signal);
    } catch {
      // Already gone.
    }
  }

  /**
   * Kills the process group and the group in front of the terminal, so
   * that children which ignore SIGHUP go too.
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
   * Stops reading the output, and keeps it stopped until
   * {@linkcode PaneProcess.thaw}. Returns false when the output is read
   * where a pause does not stop all reading.
   */
  freeze(): boolean {
    this.#frozen = true;
    if (!this.#pty) return true;
    this.#pty.pause();
    return this.#pty.fd !== undefined;
  }

  /**
   * Stops reading and parsing the output until {@linkcode PaneProcess.thaw}:
   * what was read waits in the queue, the rest in the kernel. Returns false
   * as {@linkcode PaneProcess.freeze} does.
   */
  hold(): boolean {
    this.#output?.hold();
    return this.freeze();
  }

  /** Whether the output comes faster than a quiet pane's (a flood): its queue counts as busy. */
  get flooding(): boolean {
    return this.#output !== undefined && !this.#output.quiet(performance.now());
  }

  /** Reads and parses output again after {@linkcode PaneProcess.freeze} or {@linkcode PaneProcess.hold}. */
  thaw(): void {
    this.#output?.release();
    if (!this.#frozen) return;
    this.#frozen = false;
    if (this.#pty && !(this.#output?.paused ?? false)) this.#pty.resume();
  }

  /** Parses every byte of output that waits, now. */
  drain(): void {
    this.#output?.parse(Number.MAX_SAFE_INTEGER, performance.now());
  }

  /** The output that waits to be parsed (it goes on waiting). */
  waitingOutput(): Uint8Array {
    return this.#output?.waiting() ?? new Uint8Array();
  }

  /**
   * Queues output read before this process took the pane over (an upgrade
   * handed it over unparsed): it is parsed in the pane's turns, before
   * anything read from the PTY.
   */
  queueOutput(data: Uint8Array): void {
    this.#output?.queue(data);
  }

  /** The PTY master, while the process runs. */
  get fd(): number | undefined {
    return this.#pty?.fd;
  }

  /** Stops the output queue. */
  close(): void {
    this.#output?.close();
  }
}
