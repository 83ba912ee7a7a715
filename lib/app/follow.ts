/**
 * What the open pages follow besides skiffd's events: `projects.toml` (the
 * Skiff agent's settings and the projects) and the ledger. A change made
 * anywhere (another page, `skiff settings set`, `skiff ledger add`, an
 * editor) reaches the pages as `{changed: "settings"}` or
 * `{changed: "ledger"}`, and they read it again.
 *
 * The files are followed with the system's file events (`watchPath`), and
 * only while someone looks: `projects.toml` while a page is open, the
 * ledger while a page shows it. Nothing runs on a timer, except after a
 * page found the ledger locked by another process, until the lock goes:
 * letting go of a lock makes no file event.
 *
 * @module
 */

import { isLockedError, ledgerStamp, openLedger } from "../ledger/mod.ts";
import { type PathWatch, watchPath } from "../platform/path_watch.ts";
import { ledgerPlace } from "../skipper/ledger.ts";
import type { Followed } from "./api.ts";
import { ConfigFollower } from "../overview/config_follow.ts";
import { HostsFollow } from "../overview/hosts.ts";
import type { HostView } from "../overview/view.ts";

/** How often a locked ledger is looked at, to see that the lock went. */
export const LOCKED_RECHECK_MS = 1000;

/** A page, as the followers see it. */
export interface FollowMember {
  /** The other hosts with their panes, while pages are open (see `lib/overview/hosts.ts`). */
  hosts(): HostView[];
  /** Whether the page shows the ledger (it hears of its changes only then). */
  follow(what: { ledger: boolean }): void;
  /** A read of the page found the ledger locked: it hears when the lock goes. */
  sawLock(): void;
  /** The page closed. */
  leave(): void;
}

/** Options for {@linkcode Follow}. */
export interface FollowOptions {
  /** Writes a line to skiffd's log. */
  log: (line: string) => void;
}

/** Whether another process still holds the ledger at `path` locked; never waits for it. */
function stillLocked(path: string): boolean {
  try {
    using ledger = openLedger(path, { create: false, timeout: 0 });
    return isLockedError(ledger.writeProblem());
  } catch (error) {
    return isLockedError(error);
  }
}

/**
 * Follows the ledger wherever the settings put it: tells `changed` when what
 * a reader sees may have changed, the ledger moved, or it can no longer be
 * found (a broken `projects.toml`), and when a lock a reader saw went.
 */
class LedgerFollower {
  readonly #changed: () => void;
  readonly #log: (line: string) => void;
  #path: string | null = null;
  #watch: PathWatch | undefined;
  #key: string;
  #lockPoll: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(changed: () => void, log: (line: string) => void) {
    this.#changed = changed;
    this.#log = log;
    this.#key = this.#look();
  }

  /** Where the ledger is now, and what it looks like there. */
  #look(): string {
    let path: string;
    try {
      path = ledgerPlace().path;
    } catch (error) {
      // The settings cannot say where it is: the page reads the line that says why.
      return `unknown:${(error as Error).message}`;
    }
    if (path !== this.#path) {
      this.#watch?.close();
      this.#path = path;
      this.#watch = watchPath(path, {
        changed: () => this.check(),
        trouble: (why) => this.#log(`app: ${why}; the ledger is looked at every few seconds`),
      });
    }
    return `${path}\n${ledgerStamp(path)}`;
  }

  /** Looks again (after a file event, or a change of the settings). */
  check(): void {
    if (this.#closed) return;
    const key = this.#look();
    if (key === this.#key) return;
    this.#key = key;
    this.#changed();
  }

  /**
   * A reader found the ledger locked. Letting go of a lock makes no file
   * event, so look every {@linkcode LOCKED_RECHECK_MS} until it goes, then
   * tell the pages.
   */
  sawLock(): void {
    if (this.#lockPoll !== undefined || this.#closed) return;
    this.#lockPoll = setInterval(() => {
      if (this.#path !== null && stillLocked(this.#path)) return;
      clearInterval(this.#lockPoll);
      this.#lockPoll = undefined;
      this.#changed();
    }, LOCKED_RECHECK_MS);
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#lockPoll);
    this.#watch?.close();
  }
}

interface Page {
  send: (message: unknown) => void;
  ledger: boolean;
}

/** The app's followers, shared by all its pages. */
export class Follow {
  readonly #log: (line: string) => void;
  readonly #pages = new Set<Page>();
  #config: ConfigFollower | undefined;
  #ledger: LedgerFollower | undefined;
  #hosts: HostsFollow | undefined;

  /** Makes the followers; nothing is watched until a page joins. */
  constructor(options: FollowOptions) {
    this.#log = options.log;
  }

  #tell(what: Followed): void {
    for (const page of this.#pages) {
      if (what !== "ledger" || page.ledger) page.send({ changed: what });
    }
  }

  /** Starts or stops each follower, so that one runs only while a page needs it. */
  #fit(): void {
    if (this.#pages.size > 0) {
      this.#config ??= new ConfigFollower(() => {
        this.#tell("settings");
        // The settings may move the ledger, and add or remove hosts.
        this.#ledger?.check();
        this.#hosts?.sync();
      }, { log: (line) => this.#log(`app: ${line}`) });
      this.#hosts ??= new HostsFollow({ changed: () => this.#tell("hosts"), log: this.#log });
    } else {
      this.#config?.close();
      this.#config = undefined;
      this.#hosts?.close();
      this.#hosts = undefined;
    }
    if ([...this.#pages].some((p) => p.ledger)) {
      this.#ledger ??= new LedgerFollower(() => this.#tell("ledger"), this.#log);
    } else {
      this.#ledger?.close();
      this.#ledger = undefined;
    }
  }

  /** The local skiffd said `host`'s link changed: the hosts' follower looks at it now. */
  linkChanged(host: string): void {
    this.#hosts?.wake(host);
  }

  /** A page opened: it hears of changes through `send` until it leaves. */
  join(send: (message: unknown) => void): FollowMember {
    const page: Page = { send, ledger: false };
    this.#pages.add(page);
    this.#fit();
    return {
      hosts: () => this.#hosts?.hosts() ?? [],
      follow: ({ ledger }) => {
        page.ledger = ledger;
        this.#fit();
      },
      sawLock: () => this.#ledger?.sawLock(),
      leave: () => {
        this.#pages.delete(page);
        this.#fit();
      },
    };
  }

  /** Stops following (skiffd stops). */
  close(): void {
    this.#pages.clear();
    this.#fit();
  }
}
