/**
 * The ledger's follower, loaded at its first read: its code (SQLite) is not
 * needed for the dashboard's first frame, so it loads after it.
 *
 * @module
 */

import type { ListedPane } from "../protocol/workspace.ts";
import type { HostView } from "../overview/view.ts";
import type { LedgerFollow } from "./ledger_follow.ts";
import type { LedgerState } from "./model/mod.ts";
import { importLater } from "../platform/later.ts";

/** Options for {@linkcode LedgerLoader}. */
export interface LedgerLoaderOptions {
  /** skiffd's panes now. */
  panes: () => readonly ListedPane[];
  /** The other hosts as the list follows them now. */
  hosts: () => readonly HostView[];
  /** Told each new reading. */
  changed: (ledger: LedgerState) => void;
  /** Whether the dashboard ended: the follower is not made after. */
  ended: () => boolean;
}

/** Reads and follows the ledger, loading the follower first. */
export class LedgerLoader {
  readonly #options: LedgerLoaderOptions;
  #follow: LedgerFollow | undefined;
  #loading: Promise<void> | undefined;

  /** A loader that makes its follower with `options`. */
  constructor(options: LedgerLoaderOptions) {
    this.#options = options;
  }

  /** Reads the ledger again, once the follower is loaded. */
  read(): void {
    if (this.#follow) return this.#follow.read();
    this.#loading ??= importLater<typeof import("./ledger_follow.ts")>("lib/dash/ledger_follow.ts")
      .then(({ LedgerFollow }) => {
        if (this.#options.ended()) return;
        this.#follow = new LedgerFollow({
          panes: this.#options.panes,
          hosts: this.#options.hosts,
          changed: this.#options.changed,
        });
      });
    this.#loading.then(() => this.#follow?.read());
  }

  /** Stops following. */
  close(): void {
    this.#follow?.close();
  }
}
