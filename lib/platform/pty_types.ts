/**
 * What a program on a pseudo-terminal is to the rest of skiffd, however it
 * was started (`pty.ts`, `pty_spawn.ts`) or taken over (`pty_adopted.ts`).
 *
 * @module
 */

/** How a pane's process ended. */
export interface PtyExit {
  /** The exit code, or 0 when a signal ended it. */
  exitCode: number;
  /** The signal number that ended it, or 0. */
  signal: number;
  /**
   * Set when how it ended is not known: an adopted process (see
   * `pty_adopted.ts`) that ended in the instant of the exec in place.
   */
  unknown?: true;
}

/** A process on a pseudo-terminal. */
export interface Pty {
  /** The child's process id. */
  readonly pid: number;
  /**
   * The PTY master's descriptor, while it can be handed to another program
   * (`skiff daemon upgrade`): output is read only where a pause stops all
   * reading at once (the reader thread, or an adopted terminal).
   */
  readonly fd?: number;
  /** Sets the handler for output bytes. */
  onData(handler: (data: Uint8Array) => void): void;
  /** Sets the handler for the child's exit. */
  onExit(handler: (exit: PtyExit) => void): void;
  /** Writes input bytes to the terminal. */
  write(data: Uint8Array): void;
  /** Changes the terminal's size. */
  resize(cols: number, rows: number): void;
  /** Sends a signal to the child (default `SIGHUP`). */
  kill(signal?: string): void;
  /** Stops reading output, so the child blocks once the terminal's buffer is full. */
  pause(): void;
  /** Reads output again. */
  resume(): void;
}

/** Options for {@linkcode spawnPty}. */
export interface SpawnPtyOptions {
  /** The working folder. */
  cwd: string;
  /** The whole environment of the child. */
  env: Record<string, string>;
  /** Columns. */
  cols: number;
  /** Rows. */
  rows: number;
  /**
   * Start without reading the output or waiting for the exit until the
   * first {@linkcode Pty.resume}: the output waits in the kernel. Where the
   * program is started through libc; elsewhere it is read at once.
   */
  held?: boolean;
}
