/**
 * tmux's side of the scale bench (`scale.ts`): N panes that printed their
 * history, in windows of one session, on a private server whose scrollback
 * is Skiff's; then floods, `list-panes -a` and a quiet pane's echo.
 *
 * @module
 */

import { PROMPT, rss, Tmux, waitUntil } from "./harness.ts";

/** Lines of scrollback configured in both tools. */
export const SCROLLBACK = 10_000;

/** A tmux server with N panes. */
export class TmuxScale {
  readonly #tmux: Tmux;
  #ids: string[] = [];

  /** A server on a socket under `root`, started by {@linkcode TmuxScale.panes}. */
  constructor(root: string) {
    this.#tmux = new Tmux(root);
  }

  /** Starts `n` panes of `command` at 120x40; returns the server's growth per pane (KB). */
  async panes(n: number, command: string[]): Promise<{ perPaneKb: number }> {
    const line = command.map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(" ");
    // The option is set before the session, so every pane gets the scrollback.
    await this.#tmux.run(
      "start-server",
      ";",
      "set-option",
      "-g",
      "history-limit",
      String(SCROLLBACK),
      ";",
      "new-session",
      "-d",
      "-s",
      "base",
      "-x",
      "120",
      "-y",
      "40",
      "sh",
    );
    const pid = await this.#tmux.pid();
    const before = rss(pid);
    for (let i = 0; i < n; i++) await this.#tmux.run("new-window", "-d", "-t", "base", line);
    // The first window's plain shell was there before the baseline was read.
    this.#ids = (await this.#tmux.run("list-panes", "-s", "-t", "base", "-F", "#{pane_id}"))
      .trim().split("\n").slice(1);
    if (this.#ids.length !== n) throw new Error(`tmux has ${this.#ids.length} of ${n} panes`);
    await waitUntil("tmux prompts", async () => {
      for (const id of this.#ids) {
        const text = (await this.#tmux.run("capture-pane", "-p", "-t", id)).trimEnd();
        if (!PROMPT.test(text)) return false;
      }
      return true;
    }, 300_000);
    // As long as Skiff's panes sat idle before their memory was read.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    return { perPaneKb: (rss(pid) - before) / n / 1024 };
  }

  /**
   * With the first `flooding` panes running `yes`: `list-panes -a` timed
   * `lsRuns` times, and a quiet pane's echo timed by `echo`.
   */
  async flood(
    flooding: number,
    lsRuns: number,
    echo: (
      type: (text: string) => Promise<unknown>,
      capture: () => Promise<string>,
      clear: () => Promise<unknown>,
    ) => Promise<number[]>,
  ): Promise<{ ls: number[]; echo: number[] }> {
    const quiet = this.#ids.at(-1)!;
    const floods = this.#ids.slice(0, flooding);
    for (const id of floods) await this.#tmux.run("send-keys", "-t", id, "yes", "Enter");
    const ls: number[] = [];
    for (let i = 0; i < lsRuns; i++) {
      const start = performance.now();
      await this.#tmux.run(
        "list-panes",
        "-a",
        "-F",
        "#{pane_id} #{pane_pid} #{pane_current_command} #{pane_current_path} #{pane_title}",
      );
      ls.push(performance.now() - start);
    }
    const echoes = await echo(
      (text) => this.#tmux.run("send-keys", "-t", quiet, "-l", text),
      () => this.#tmux.run("capture-pane", "-p", "-t", quiet),
      () => this.#tmux.run("send-keys", "-t", quiet, "C-u"),
    );
    for (const id of floods) await this.#tmux.run("send-keys", "-t", id, "C-c");
    return { ls, echo: echoes };
  }

  /** Stops the server. */
  kill(): Promise<void> {
    return this.#tmux.kill();
  }
}
