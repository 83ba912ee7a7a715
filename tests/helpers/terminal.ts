/**
 * A terminal for tests: runs a program on a real PTY and keeps a screen of
 * what it prints, as a person's terminal emulator would.
 *
 * @module
 */

import { type Pty, spawnPty } from "../../lib/platform/pty.ts";
import { Screen } from "../../lib/screen/screen.ts";
import { waitFor, type WaitOptions } from "./skiff.ts";

/** A program running in a test terminal. */
export class TestTerminal {
  readonly #pty: Pty;
  readonly screen: Screen;
  /** Resolves with the exit code when the program ends. */
  readonly exited: Promise<number>;
  #raw = "";

  private constructor(pty: Pty, screen: Screen, exited: Promise<number>) {
    this.#pty = pty;
    this.screen = screen;
    this.exited = exited;
  }

  /** Starts `argv` on a PTY of `cols` × `rows`. */
  static async start(
    argv: string[],
    options: { env: Record<string, string>; cwd: string; cols?: number; rows?: number },
  ): Promise<TestTerminal> {
    const cols = options.cols ?? 100;
    const rows = options.rows ?? 30;
    const ref: { pty?: Pty } = {};
    // Answers to queries go back to the program, as a real terminal's would.
    const screen = new Screen(cols, rows, {
      scrollback: 1000,
      respond: (answer) => ref.pty?.write(new TextEncoder().encode(answer)),
    });
    const [program, ...args] = argv;
    const pty = await spawnPty(program, args, { cwd: options.cwd, env: options.env, cols, rows });
    ref.pty = pty;
    let resolveExit: (code: number) => void = () => {};
    const exited = new Promise<number>((resolve) => resolveExit = resolve);
    const terminal = new TestTerminal(pty, screen, exited);
    const decoder = new TextDecoder();
    pty.onData((data) => {
      terminal.#raw += decoder.decode(data, { stream: true });
      screen.write(data, () => {});
    });
    pty.onExit((exit) => screen.write(new Uint8Array(0), () => resolveExit(exit.exitCode)));
    return terminal;
  }

  /** Everything the program printed, as text. */
  get raw(): string {
    return this.#raw;
  }

  /** Types `text` (raw bytes as a string). */
  type(text: string): void {
    this.#pty.write(new TextEncoder().encode(text));
  }

  /** Changes the terminal's size, as a person resizing the window. */
  resize(cols: number, rows: number): void {
    this.screen.resize(cols, rows);
    this.#pty.resize(cols, rows);
  }

  /** The visible screen as text. */
  text(): string {
    return this.screen.capture();
  }

  /** Waits until the screen matches `pattern`. */
  async waitForText(pattern: RegExp | string, options: WaitOptions = {}): Promise<string> {
    try {
      return await waitFor(`the terminal to show ${pattern}`, () => {
        const text = this.text();
        return (typeof pattern === "string" ? text.includes(pattern) : pattern.test(text))
          ? text
          : undefined;
      }, options);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- screen ---\n${this.text()}`);
    }
  }

  /** Sends `signal` to the program (a dropped SSH link is SIGHUP). */
  signal(signal: Deno.Signal): void {
    this.#pty.kill(signal);
  }

  /** Ends the program. */
  kill(): void {
    try {
      this.#pty.kill("SIGKILL");
    } catch {
      // Gone already.
    }
  }
}

/** How skiffd's full redraw of a pane begins: home, clear, clear the scrollback. */
export const REDRAW_START = "\x1b[H\x1b[2J\x1b[3J";

/**
 * Waits until `text` was printed after the first full redraw that came
 * since `from` (an offset in {@linkcode TestTerminal.raw}): a line drawn over
 * the pane, such as an attach notice, that the redraw of an attach did not
 * paint over. (A notice taken away later brings another redraw; that one
 * does not count.)
 */
export async function waitForDrawnAfterRedraw(
  term: TestTerminal,
  text: string,
  options: WaitOptions & { from?: number } = {},
): Promise<void> {
  try {
    await waitFor(`'${text}' drawn after the first redraw`, () => {
      const since = term.raw.slice(options.from ?? 0);
      const redraw = since.indexOf(REDRAW_START);
      return redraw !== -1 && since.indexOf(text, redraw) !== -1;
    }, options);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- screen ---\n${term.text()}`);
  }
}
