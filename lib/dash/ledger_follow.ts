/**
 * The ledger as the dashboard follows it: read at the start and again
 * whenever the file changes (the system's file events, through
 * `watchPath`; its stamp tells a real change from a reader's touch) or
 * skiffd says something that changes a task's shown state (a pane exited,
 * went, or came back). Never on a timer.
 *
 * @module
 */

import { ledgerStamp } from "../ledger/mod.ts";
import { readLedgerView } from "../overview/ledger.ts";
import { type PathWatch, watchPath } from "../platform/path_watch.ts";
import type { ListedPane } from "../protocol/workspace.ts";
import type { HostView } from "../overview/view.ts";
import { ledgerPlace } from "../skipper/ledger.ts";
import type { LedgerState } from "./model/mod.ts";

/** How long a read waits for a lock another process holds (ms). */
const LEDGER_WAIT_MS = 200;

/** Follows the ledger; tells `changed` with each new reading. */
export class LedgerFollow {
  readonly #changed: (ledger: LedgerState) => void;
  readonly #panes: () => readonly ListedPane[];
  readonly #hosts: () => readonly HostView[];
  #watch: PathWatch | undefined;
  #stamp = "";
  #path = "";

  /**
   * Follows the ledger the settings name; `panes` are skiffd's panes now,
   * `hosts` the other hosts as the list follows them.
   */
  constructor(options: {
    changed: (ledger: LedgerState) => void;
    panes: () => readonly ListedPane[];
    hosts?: () => readonly HostView[];
  }) {
    this.#changed = options.changed;
    this.#panes = options.panes;
    this.#hosts = options.hosts ?? (() => []);
  }

  /** Reads the ledger now (and starts following it). */
  read(): void {
    let path: string;
    try {
      path = ledgerPlace().path;
    } catch (error) {
      return this.#changed({ path: "", rows: [], problem: (error as Error).message });
    }
    if (path !== this.#path) {
      this.#watch?.close();
      this.#path = path;
      this.#watch = watchPath(path, { changed: () => this.#look() });
    }
    this.#stamp = ledgerStamp(path);
    try {
      const view = readLedgerView(this.#panes(), {
        timeout: LEDGER_WAIT_MS,
        hosts: this.#hosts(),
      });
      this.#changed({ path: view.path, rows: view.rows, problem: view.problem });
    } catch (error) {
      this.#changed({ path, rows: [], problem: (error as Error).message });
    }
  }

  #look(): void {
    if (ledgerStamp(this.#path) !== this.#stamp) this.read();
  }

  /** Stops following. */
  close(): void {
    this.#watch?.close();
    this.#watch = undefined;
  }
}
