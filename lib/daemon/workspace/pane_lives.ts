/**
 * The running side of a workspace's panes: each pane started, brought back
 * exited, or adopted from a skiffd before this one, with the callbacks every
 * pane gets (its agent watch, the screen saver, its title and exit), and
 * found by id until it is let go. The records of the panes are the
 * workspace's (`live_workspace.ts`); this holds what runs.
 *
 * @module
 */

import type { TrackerState } from "../../agents/tracker.ts";
import type { PtyExit } from "../../platform/pty.ts";
import type { LazyPrelude, SavedScreen } from "../../screen/screen.ts";
import { type AgentWatches, Pane, paneEventFields, type PaneHooks } from "../panes/mod.ts";
import type { EventBus, SavedPane } from "../records/mod.ts";
import type { ScreenSaver } from "../screens/mod.ts";
import type { MakeAdopted } from "./workspace_options.ts";

/** What {@linkcode PaneLives} is given. */
export interface PaneLivesOptions {
  /** The event stream (a title change is told there). */
  events: EventBus;
  /** The agent watch of every pane. */
  watches: AgentWatches;
  /** Saves each pane's screen in the background. */
  screenSaver: ScreenSaver;
  /** The environment a pane's program starts with. */
  env: (saved: SavedPane) => Record<string, string>;
  /** The scrollback the config gives each pane now. */
  scrollback: () => number;
  /** A pane's process exited. */
  exited: (pane: Pane, exit: PtyExit) => void;
  /** A pane of session `id` runs (so the session's end will be told). */
  running: (session: string) => void;
}

/** The panes that run (or ran, and stay exited) in one workspace, by id. */
export class PaneLives {
  readonly #panes = new Map<string, Pane>();
  readonly #options: PaneLivesOptions;

  /** No panes yet. */
  constructor(options: PaneLivesOptions) {
    this.#options = options;
  }

  /** The pane with id `id`, if it is live. */
  get(id: string): Pane | undefined {
    return this.#panes.get(id);
  }

  /** Every live pane, in the order they came. */
  values(): IterableIterator<Pane> {
    return this.#panes.values();
  }

  /** Lets pane `id` go: it is no longer found. */
  delete(id: string): void {
    this.#panes.delete(id);
  }

  /**
   * Starts `saved`'s program (`argv`) on a new PTY, with `prelude` on its
   * screen first; with `deferScreen`, drawn when the screen is first used.
   */
  async start(
    saved: SavedPane,
    argv: string[],
    prelude?: string | LazyPrelude,
    options: { deferScreen?: boolean } = {},
  ): Promise<Pane> {
    const scrollback = this.#options.scrollback();
    const pane = await Pane.start(saved, {
      argv,
      env: this.#options.env(saved),
      scrollback,
      prelude,
      deferScreen: options.deferScreen,
      hooks: this.#hooks(),
    });
    this.#follow(pane);
    this.#options.screenSaver.add(pane, { scrollback });
    return pane;
  }

  /** Brings back a pane whose process had exited before a restart, with its exit and last screen. */
  startExited(saved: SavedPane, screen?: SavedScreen): Pane {
    const pane = Pane.exited(saved, {
      scrollback: this.#options.scrollback(),
      exit: { exitCode: saved.exited!.code, signal: saved.exited!.signal },
      exitedAt: Date.parse(saved.exited!.at),
      screen,
    });
    this.#follow(pane);
    return pane;
  }

  /** Takes over `saved`'s pane from a skiffd before this one (see `LiveWorkspace.adopt`). */
  adopt(saved: SavedPane, make: MakeAdopted): { pane: Pane; tracker?: TrackerState } {
    const scrollback = this.#options.scrollback();
    const made = make(saved, { hooks: this.#hooks(), scrollback });
    this.#follow(made.pane);
    if (made.pane.status === "running") {
      const { screenSaver } = this.#options;
      screenSaver.add(made.pane, { scrollback, history: made.screenSave?.history });
      // A change the skiffd before had not saved yet must still reach the disk.
      if (made.screenSave?.unsaved !== false) screenSaver.changed(made.pane);
    }
    return made;
  }

  /** The callbacks every pane of this workspace gets, started here or adopted. */
  #hooks(): PaneHooks {
    const { events, watches, screenSaver } = this.#options;
    const watchHooks = watches.paneHooks();
    return {
      ...watchHooks,
      activity: (p) => {
        watchHooks.activity(p);
        screenSaver.changed(p);
      },
      exited: (p, exit) => this.#options.exited(p, exit),
      title: (p, title) => events.emit("title", { ...paneEventFields(p), title }),
    };
  }

  #follow(pane: Pane): void {
    this.#panes.set(pane.id, pane);
    this.#options.watches.add(pane);
    if (pane.status === "running") this.#options.running(pane.saved.session);
  }
}
