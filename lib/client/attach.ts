/**
 * Attaching this terminal to a pane: raw mode, redraw, resizes, the detach
 * key, and the history key that opens the pane's history in a pager. When
 * skiffd reloads or restarts, the terminal follows it (see
 * `attach_link.ts`); keys typed meanwhile are held, or refused with a line.
 *
 * `skiff attach`, `skiff skipper` and the dashboard call
 * {@linkcode attachTerminal}. A caller with an input loop of its own (the
 * dashboard) reads keys through `terminal_input.ts` too: keys typed after
 * the detach key, or read by a read this attach could not take back, go to
 * it rather than being lost.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { writeAllSync } from "../platform/bytes.ts";
import { type AttachKeys, loadConfig } from "../config/config.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import { AttachLink, type Reattach, type TerminalSize } from "./attach_link.ts";
import { KeyFinder } from "./attach_keys.ts";
import { showHistory } from "./history_pager.ts";
import { socketPath } from "../config/paths.ts";
import { connectDaemon, tryConnect } from "./connect.ts";
import { savedPanes } from "./saved_panes.ts";
import { mostRecentPane, noRunningPane } from "./recent.ts";
import { nextTerminalInput, unreadTerminalInput } from "./terminal_input.ts";

const encoder = new TextEncoder();

/** Undoes modes a program may have set in this terminal (mouse, paste, keypad, kitty keys). */
const RESET_MODES = "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1004l\x1b[?2004l" +
  "\x1b[?1l\x1b>\x1b[<u\x1b[?25h\x1b[0m";
const ENTER_ALTERNATE = "\x1b[?1049h";
const LEAVE_ALTERNATE = "\x1b[?1049l";

/** How long a notice shows over the pane, unless a key is typed first. */
const NOTICE_MS = 5000;

/** How an attach ended. */
export interface AttachOutcome {
  /**
   * `detached`, `exited`, `killed`, `daemon stopped` (a `daemon stop`),
   * `gone` (the pane was not there when skiffd came back) or `lost` (skiffd
   * went away and did not come back).
   */
  reason: string;
  /** The pane's id. */
  pane: string;
  /** The pane's name. */
  name: string;
  /** How the pane was chosen when none was named: `used` (used last) or `newest`. */
  picked?: "used" | "newest";
  /** Bytes typed while skiffd was away that never went in, since the attach ended first. */
  unsent?: number;
  /** The line that says how it ended, such as `[detached from web (p1); …]`. */
  line: string;
}

/** Options for {@linkcode attachTerminal}. */
export interface AttachTerminalOptions {
  /** The keys it keeps for itself; by default `[attach]` of `projects.toml`. */
  keys?: AttachKeys;
  /** Enter the alternate screen at the start and leave it at the end (default true). */
  alternateScreen?: boolean;
  /** Print the end line to stdout (default false: the caller prints `outcome.line`). */
  printEnd?: boolean;
  /** The command that attaches again, for the end line after a detach (default `skiff attach NAME`). */
  again?: string;
  /** The socket; by default the configured one. */
  socket?: string;
  /** Start skiffd when none answers (default true; false for a link to another host). */
  start?: boolean;
}

/**
 * This terminal's size, or nothing when it does not know (some report 0×0):
 * then the pane keeps its size rather than shrinking to nothing.
 */
function terminalSize(): TerminalSize | undefined {
  try {
    const { columns, rows } = Deno.consoleSize();
    return columns >= 2 && rows >= 2 ? { cols: columns, rows } : undefined;
  } catch {
    return undefined;
  }
}

function label(info: { name: string; id: string }): string {
  return `${info.name} (${info.id})`;
}

/** The line that says how an attach ended. */
export function attachEndLine(
  outcome: Pick<AttachOutcome, "reason" | "pane" | "name" | "unsent">,
  again = `skiff attach ${outcome.name}`,
): string {
  const pane = label({ name: outcome.name, id: outcome.pane });
  const lines: Record<string, string> = {
    detached: `[detached from ${pane}; '${again}' attaches again]`,
    exited: `[${pane} exited]`,
    killed: `[${pane} was killed]`,
    "daemon stopped": "[skiffd stopped]",
    lost: "[lost skiffd]",
    gone: `[${pane} is gone]`,
  };
  const line = lines[outcome.reason] ?? `[${outcome.reason}]`;
  if (!outcome.unsent) return line;
  const one = outcome.unsent === 1;
  return `${line.slice(0, -1)}; ${outcome.unsent} byte${
    one ? "" : "s"
  } typed while skiffd was away ${one ? "was" : "were"} not sent]`;
}

/**
 * The line shown over the pane after it was attached again, or undefined
 * when nothing a person would notice changed (a reload).
 */
export function reattachNotice(info: PaneInfo, change: Reattach): string | undefined {
  if (!change.newProcess) return undefined;
  const what = change.why === "lost" ? "skiffd came back" : "skiffd restarted";
  const pane = label(info);
  let line = info.resumed
    ? `${what}: ${pane} runs a new process; ${info.resumed} resumed its conversation`
    : `${what}: ${pane} is a new shell`;
  if (change.refused > 0) {
    const one = change.refused === 1;
    line += `; ${change.refused} byte${one ? "" : "s"} typed meanwhile ${
      one ? "was" : "were"
    } not sent`;
  }
  return line;
}

/** The line that says which pane `skiff attach` with no pane chose. */
export function pickedNotice(info: PaneInfo, why: "used" | "newest"): string {
  return why === "used"
    ? `attached to ${label(info)}, the pane used last`
    : `attached to ${label(info)}, the newest pane (none was used yet)`;
}

/** A one-line notice over the bottom row, kept until a key or a few seconds pass. */
class Notice {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #redraw: () => void;

  constructor(redraw: () => void) {
    this.#redraw = redraw;
  }

  /** Shows `text` in the bottom row; the cursor and its attributes stay. */
  show(text: string): void {
    const size = terminalSize() ?? { cols: 80, rows: 24 };
    const shown = ` ${text} `.slice(0, size.cols);
    write(`\x1b7\x1b[${size.rows};1H\x1b[0;7m\x1b[2K${shown}\x1b[0m\x1b8`);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.clear(), NOTICE_MS);
  }

  /** Takes the notice away (the pane's screen is drawn again). */
  clear(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#redraw();
  }
}

function write(text: string): void {
  writeAllSync(Deno.stdout, encoder.encode(text));
}

/**
 * Attaches the current terminal to `pane` until the person detaches or the
 * pane ends. With no pane, attaches to the one a person used last (see
 * {@linkcode mostRecentPane}) and says so over it.
 */
export async function attachTerminal(
  pane: string | undefined,
  options: AttachTerminalOptions = {},
): Promise<AttachOutcome> {
  if (!Deno.stdin.isTerminal() || !Deno.stdout.isTerminal()) {
    throw new SkiffError("skiff attach needs a terminal on stdin and stdout", { exit: "USAGE" });
  }
  const keys = options.keys ?? loadConfig().attach;
  const alternate = options.alternateScreen ?? true;
  let picked: ReturnType<typeof mostRecentPane> | undefined;
  if (pane === undefined) {
    const socket = options.socket ?? socketPath();
    let client = await tryConnect(socket);
    if (!client) {
      // With no saved pane, starting skiffd (and the app) would find none either.
      if (savedPanes(socket)?.length === 0) throw noRunningPane(0);
      client = await connectDaemon({ socket, start: options.start });
    }
    try {
      picked = mostRecentPane((await client.call("pane.list", {})).panes);
    } finally {
      client.close();
    }
    pane = picked.pane.id;
  }

  // Output waits until this terminal is ready for it.
  let early: Uint8Array[] | undefined = [];
  let paging = false;
  const notice = new Notice(() => link.redraw());
  /**
   * A notice to show after the next output: skiffd's redraw (after an
   * attach, or a REDRAW) follows its answer, and would paint over it.
   */
  let pending: string | undefined = picked ? pickedNotice(picked.pane, picked.why) : undefined;
  const show = (data: Uint8Array) => {
    writeAllSync(Deno.stdout, data);
    if (pending === undefined) return;
    notice.show(pending);
    pending = undefined;
  };
  const link = await AttachLink.open(pane, {
    socket: options.socket,
    start: options.start,
    size: terminalSize,
    output: (data) => {
      if (early) early.push(data);
      else if (!paging) show(data);
    },
    reattached: (info, change) => pending = reattachNotice(info, change) ?? pending,
  });
  Deno.stdin.setRaw(true, { cbreak: false });
  if (alternate) write(ENTER_ALTERNATE);
  for (const data of early) show(data);
  early = undefined;

  const onResize = () => {
    const size = terminalSize();
    if (size) link.resize(size);
  };
  try {
    Deno.addSignalListener("SIGWINCH", onResize);
  } catch {
    // No SIGWINCH here: the size stays as it was at attach.
  }
  const finder = new KeyFinder(keys);
  const stop = new AbortController();
  link.done.then(() => stop.abort());
  const history = async () => {
    let handedOver = false;
    paging = true;
    const failed = await showHistory(link.info.id, {
      socket: options.socket,
      title: `History of ${label(link.info)}`,
      around: {
        before: () => {
          handedOver = true;
          write(RESET_MODES + LEAVE_ALTERNATE);
          Deno.stdin.setRaw(false);
        },
        after: () => {
          Deno.stdin.setRaw(true, { cbreak: false });
          write(ENTER_ALTERNATE);
          paging = false;
          link.redraw();
        },
      },
    });
    paging = false;
    // After the pager, shown once the redraw asked for on the way back is drawn.
    if (failed && handedOver) pending = failed;
    else if (failed) notice.show(failed);
  };

  let failure: unknown;
  try {
    reading: for (;;) {
      let chunk = await nextTerminalInput({ signal: stop.signal });
      if (chunk === undefined) break;
      if (chunk === null) {
        link.detach();
        break;
      }
      notice.clear();
      while (chunk.length > 0) {
        const found = finder.find(chunk);
        if (!found) {
          link.input(chunk);
          break;
        }
        link.input(chunk.subarray(0, found.at));
        const rest = chunk.subarray(found.at + found.length);
        if (found.press && found.action === "detach") {
          // Keys typed after the detach key belong to whatever reads the terminal next.
          unreadTerminalInput(rest.slice());
          link.detach();
          break reading;
        }
        if (found.press && found.action === "history") await history();
        chunk = rest;
      }
    }
  } catch (error) {
    failure = error;
    link.close();
  }
  await link.done;
  notice.clear();
  try {
    Deno.removeSignalListener("SIGWINCH", onResize);
  } catch {
    // Never added.
  }
  write(RESET_MODES + (alternate ? LEAVE_ALTERNATE : ""));
  Deno.stdin.setRaw(false);
  if (failure) throw failure;
  const end = await link.done;
  const outcome: AttachOutcome = {
    reason: end.reason,
    pane: link.info.id,
    name: link.info.name,
    ...(picked ? { picked: picked.why } : {}),
    ...(end.unsent ? { unsent: end.unsent } : {}),
    line: "",
  };
  outcome.line = attachEndLine(outcome, options.again);
  if (options.printEnd) write(outcome.line + "\n");
  return outcome;
}
