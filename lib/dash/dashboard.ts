/**
 * The dashboard's loop: it holds the terminal, lists the workspace, follows
 * skiffd's numbered events (through reloads and restarts, keeping the
 * selection), follows the selected pane's screen, reads keys, and draws a
 * frame only when something shown changed, at most one per
 * `FRAME_MS`. What a key does that takes the terminal away (Enter's attach,
 * `d`'s pager) or lands a worktree (`L`) is `pane_actions.ts`'s; the loop
 * draws nothing while another program has the terminal.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import { Exit } from "../errors.ts";
import type { MethodName, ParamsOf, ResultOf } from "../protocol/methods.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import type { AskedListing } from "../overview/listing.ts";
import type { ListedPane } from "../protocol/workspace.ts";
import type { LandResult } from "../protocol/land.ts";
import {
  type DashActions,
  type DashState,
  initialState,
  rowsOf,
  selectFirstPane,
} from "./model/mod.ts";
import {
  followSignals,
  FrameClock,
  type Layout,
  layout,
  Painter,
  previewPane,
  renderFrame,
  TerminalHold,
  terminalSize,
  writeTerminal,
} from "./draw/mod.ts";
import { readKeys } from "./input/mod.ts";
import { LedgerLoader } from "./ledger_loader.ts";
import { PaneActions } from "./pane_actions.ts";
import { PanePreview, preloadScreen } from "./preview.ts";
import { SkiffdRequests } from "./skiffd_requests.ts";
import { WorktreeCounts } from "./worktree_counts.ts";
import { type LaterParts, WorkspaceFollow } from "./workspace_follow.ts";
import { importLater } from "../platform/later.ts";
import { waitAtMost } from "../platform/wait.ts";

/** How long a key typed before the first listing waits for it at most (ms). */
const EARLY_KEY_WAIT_MS = 2000;

/** How the dashboard ended: an exit code and, maybe, one line to print. */
export interface DashOutcome {
  /** The exit code. */
  code: number;
  /** A line for the person, printed after the terminal is given back. */
  line?: string;
}

/** The dashboard on a terminal it holds while it runs: what `runDashboard` runs. */
export class Dashboard implements DashActions {
  readonly state: DashState = initialState();
  readonly #hold = new TerminalHold();
  readonly #painter = new Painter(writeTerminal);
  readonly #preview: PanePreview;
  /** The selected pane's worktree, counted again as it changes (see `worktree_counts.ts`). */
  readonly #counts = new WorktreeCounts((pane) =>
    this.call("pane.worktree", { pane }).catch(() => {})
  );
  /** The ledger's follower (loaded after the first frame). */
  readonly #ledger: LedgerLoader;
  /** The workspace as listed and followed. */
  readonly #workspace: WorkspaceFollow;
  #layout: Layout;
  readonly #skiffd: SkiffdRequests;
  readonly #clock: FrameClock;
  #deferred: Promise<LaterParts> | undefined;
  /** The actions that hand over the terminal or land a worktree. */
  readonly #actions: PaneActions;
  #ended = false;
  #agents: string[] | undefined;
  readonly #stopReading = new AbortController();
  #finish: (outcome: DashOutcome) => void = () => {};
  readonly finished: Promise<DashOutcome>;

  /**
   * A dashboard of the skiffd at `socket`, asking it on `client` first;
   * `options.first` is skiffd's part of the first listing, when it was
   * asked for already.
   */
  constructor(socket: string, client: DaemonClient, options: { first?: AskedListing } = {}) {
    this.#skiffd = new SkiffdRequests(socket, client);
    this.#clock = new FrameClock({
      draw: () => this.#draw(),
      paused: () => this.#actions.attached || this.#ended,
    });
    const size = terminalSize();
    this.#layout = layout(size.cols, size.rows);
    this.#preview = new PanePreview({
      socket,
      changed: () => {
        this.#drawSoon();
        this.#counts.printed();
      },
    });
    this.#ledger = new LedgerLoader({
      panes: () => this.state.view?.panes ?? [],
      hosts: () => this.state.view?.hosts ?? [],
      changed: (ledger) => {
        this.state.ledger = ledger;
        this.#drawSoon();
      },
      ended: () => this.#ended,
    });
    this.#actions = new PaneActions({
      state: this.state,
      socket,
      hold: this.#hold,
      painter: this.#painter,
      preview: this.#preview,
      skiffd: this.#skiffd,
      later: () => this.#later(),
      relist: () => this.relist(),
    });
    this.#workspace = new WorkspaceFollow({
      socket,
      state: this.state,
      skiffd: this.#skiffd,
      first: options.first,
      later: () => this.#later(),
      ended: () => this.#ended,
      end: (outcome) => this.end(outcome),
      firstListed: () => {
        // The first frame with the panes goes out now, before anything else that waits.
        this.#draw({ selectFirst: true });
        // What the first frame does not need loads after it.
        setTimeout(() => {
          preloadScreen();
          this.#readAgents();
          this.#workspace.followConfig();
        }, 0);
      },
      listed: () => {
        // Which tasks show interrupted or gone depends on the panes just listed.
        this.readLedger();
        this.#preview.retry();
        this.#drawSoon();
      },
      changed: () => this.#drawSoon(),
      ledgerMayChange: () => this.readLedger(),
    });
    this.finished = new Promise((resolve) => this.#finish = resolve);
  }

  /** Takes the terminal and runs until the person quits or skiffd stops for good. */
  async run(): Promise<DashOutcome> {
    this.#hold.take();
    const release = followSignals({
      resized: () => this.#resized(),
      ended: (signal) => {
        if (signal === "SIGINT" && this.#actions.paging) return;
        this.end({ code: Exit.OK });
      },
    });
    try {
      // The first listing went out before the dashboard's code loaded (or goes out now), on the
      // connection already open: skiffd answers meanwhile. The event stream's own listing (once
      // subscribed) follows it, so nothing between the two is missed.
      const arrived = this.#workspace.firstArrived;
      this.relist();
      // Nothing to show yet: an empty frame says so, unless the panes are here already.
      if (!arrived) this.#draw();
      // Keys are read from the start (what they do loads at the first one); the events follower
      // starts once the first frame is drawn, or the first listing failed.
      this.#readKeys();
      const outcome = await this.finished;
      // A landing that was under way is stopped, and puts everything back before the end.
      await this.#actions.stopLanding();
      return outcome;
    } finally {
      release();
      this.close();
    }
  }

  /** Ends the dashboard with `outcome`. */
  end(outcome: DashOutcome): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#finish(outcome);
  }

  /** Gives the terminal back and lets go of everything. */
  close(): void {
    this.#ended = true;
    this.#stopReading.abort();
    this.#clock.stop();
    this.#preview.close();
    this.#counts.close();
    this.#ledger.close();
    this.#workspace.close();
    this.#skiffd.close();
    this.#hold.giveBack();
  }

  #resized(): void {
    const size = terminalSize();
    this.#layout = layout(size.cols, size.rows);
    this.#painter.invalidate();
    if (!this.#actions.attached) writeTerminal("\x1b[2J");
    this.#draw();
  }

  // ---- Drawing.

  /** Draws a frame now. */
  #draw(options: { selectFirst?: boolean } = {}): void {
    this.#clock.drawing();
    if (this.#actions.attached || this.#ended) return;
    this.state.now = Date.now();
    // The list's rows are worked out once a frame (a thousand panes take milliseconds): the
    // selection, the list and the preview share them.
    const rows = rowsOf(this.state);
    if (options.selectFirst) selectFirstPane(this.state, rows);
    const frame = renderFrame(this.state, this.#layout, {
      lines: (width, height) => this.#preview.lines(width, height),
      problem: this.#preview.problem,
      rows,
    });
    this.#painter.paint(frame);
    // The selection may have moved (its pane went): the preview follows it.
    const selected = previewPane(this.state, rows);
    this.#preview.follow(selected);
    this.#counts.selected(selected);
    // Ages show in the list only.
    const list = this.state.mode === "list";
    this.#clock.drawn(
      list ? { panes: this.state.view?.panes ?? [], now: this.state.now } : undefined,
    );
  }

  /** Draws a frame soon (see {@linkcode FrameClock.soon}). */
  #drawSoon(): void {
    this.#clock.soon();
  }

  // ---- skiffd.

  /** Asks skiffd; a request about a pane of another host (`HOST:ID`) goes to that host's. */
  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    return this.#skiffd.call(method, params);
  }

  /** Lists the workspace again; resolves once the list is read. */
  relist(): Promise<void> {
    return this.#workspace.relist();
  }

  /** The parts the first frame does not need, loaded once. */
  #later(): Promise<LaterParts> {
    return this.#deferred ??= importLater<LaterParts>("lib/dash/later/mod.ts");
  }

  // ---- Keys.

  async #readKeys(): Promise<void> {
    const gone = await readKeys({
      signal: this.#stopReading.signal,
      ended: () => this.#ended,
      key: async (key) => {
        // A key typed before every pane was listed acts on them once they are (a skiffd that
        // does not answer keeps no key, `q` above all, waiting for long).
        if (!this.state.view || this.state.view.cut) {
          await waitAtMost(this.#workspace.wholeTried, EARLY_KEY_WAIT_MS);
        }
        const { handleKey } = await this.#later();
        await handleKey(this, key);
        if (!this.#ended) this.#draw();
      },
    });
    // The terminal went away (a dropped SSH link): end as on SIGHUP.
    if (gone) this.end({ code: Exit.OK });
  }

  // ---- Actions (those that hand over the terminal or land a worktree are `pane_actions.ts`'s).

  /** Opens `pane` full screen; the detach key comes back here. */
  open(pane: string): Promise<void> {
    return this.#actions.open(pane);
  }

  /** Shows `pane`'s worktree diff in the pager until it quits (see {@linkcode PaneActions.showDiff}). */
  showDiff(pane: ListedPane): Promise<void> {
    return this.#actions.showDiff(pane);
  }

  /** Lands `pane`'s worktree as `skiff land PANE` does (see {@linkcode PaneActions.land}). */
  land(
    pane: string,
    options: { dryRun: boolean; progress?: (line: string) => void },
  ): Promise<LandResult> {
    return this.#actions.land(pane, options);
  }

  /** Draws a frame soon: something shown changed outside a key's handling. */
  redraw(): void {
    this.#drawSoon();
  }

  /** Opens the Skiff agent, as `skiff skipper` does. */
  openAgent(): Promise<void> {
    return this.#actions.openAgent();
  }

  /** Makes a pane as `skiff new` does. */
  newPane(answers: Record<string, string>): Promise<PaneInfo> {
    return this.#skiffd.newPane(answers);
  }

  /** Reads the ledger again. */
  readLedger(): void {
    // Which tasks show gone depends on every pane: not on a first screen's listing, which the
    // whole one follows at once (and reads the ledger then).
    if (this.state.view?.cut) return;
    this.#ledger.read();
  }

  /** Reads a result file. */
  readResult(path: string): Promise<string> {
    return this.#actions.readResult(path);
  }

  /** Ends the dashboard as the person asked. */
  quit(): void {
    this.end({ code: Exit.OK });
  }

  /** The projects and agents a new pane may have (the agents once read: see `#readAgents`). */
  choices(): { projects: string[]; agents: string[] } {
    return {
      projects: this.state.view?.projects.map((p) => p.name) ?? [],
      agents: this.#agents ?? [],
    };
  }

  /** Reads the known agents' ids (for the new-pane prompt) and the detach key, after the first frame. */
  async #readAgents(): Promise<void> {
    const { readDashConfig } = await this.#later();
    const config = readDashConfig();
    this.#agents = config.agents;
    if (config.detachKey !== undefined) this.state.detachKey = config.detachKey;
  }
}
