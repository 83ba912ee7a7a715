/**
 * What the dashboard does for a key that takes it out of its loop: it hands
 * the terminal over (to a real attach, or to `skiff diff`'s pager) until it
 * comes back, or lands a pane's worktree while the loop goes on. The loop
 * (`dashboard.ts`) asks here whether another program has the terminal, so
 * that it draws no frame meanwhile, and waits at its end for a landing under
 * way to put everything back.
 *
 * @module
 */

import type { LandResult } from "../protocol/land.ts";
import type { ListedPane } from "../protocol/workspace.ts";
import type { DashState } from "./model/mod.ts";
import { type Painter, type TerminalHold, writeTerminal } from "./draw/mod.ts";
import type { PanePreview } from "./preview.ts";
import type { SkiffdRequests } from "./skiffd_requests.ts";
import type { LaterParts } from "./workspace_follow.ts";
import { importLater } from "../platform/later.ts";

/** The dashboard's parts that {@linkcode PaneActions} works with. */
export interface PaneActionsParts {
  /** The dashboard's state: its status row says how an action ended. */
  state: DashState;
  /** skiffd's socket, for the attach and for `skiff diff`. */
  socket: string;
  /** The terminal the dashboard holds, given back while another program has it. */
  hold: TerminalHold;
  /** The painter, told to paint everything again when the terminal comes back. */
  painter: Painter;
  /** The selected pane's preview, closed while another program has the terminal. */
  preview: PanePreview;
  /** The dashboard's requests to skiffd. */
  skiffd: SkiffdRequests;
  /** The parts loaded after the first frame, loaded once. */
  later: () => Promise<LaterParts>;
  /** Lists the workspace again (something may have changed while the terminal was away). */
  relist: () => Promise<void>;
}

/** The dashboard's actions that hand over the terminal or land a worktree. */
export class PaneActions {
  readonly #parts: PaneActionsParts;
  #attached = false;
  /** The pager has the terminal: Ctrl+C there is the pager's, not a reason to end. */
  #paging = false;
  /** A landing under way (`L`): the end stops it and waits until it has put everything back. */
  #landing: { stop: AbortController; settled: Promise<void> } | undefined;

  /** Actions on the dashboard's `parts`. */
  constructor(parts: PaneActionsParts) {
    this.#parts = parts;
  }

  /** Another program (an attach, the pager) has the terminal: the dashboard draws nothing. */
  get attached(): boolean {
    return this.#attached;
  }

  /** The pager has the terminal: Ctrl+C there is the pager's, not a reason to end. */
  get paging(): boolean {
    return this.#paging;
  }

  /** Stops a landing under way, if any, and resolves once it has put everything back. */
  async stopLanding(): Promise<void> {
    this.#landing?.stop.abort();
    await this.#landing?.settled;
  }

  /** Opens `pane` full screen; the detach key comes back here. */
  async open(pane: string): Promise<void> {
    const parts = this.#parts;
    this.#attached = true;
    parts.preview.close();
    // The attached program sets its own modes; ours are undone first.
    writeTerminal("\x1b[?2004l\x1b[?7h\x1b[?25h\x1b[0m");
    try {
      const { attachFromDash } = await parts.later();
      parts.state.status = await attachFromDash(pane, { socket: parts.socket });
    } finally {
      this.#attached = false;
      parts.hold.take();
      parts.painter.invalidate();
      parts.relist();
    }
  }

  /**
   * Shows `pane`'s worktree diff as `skiff diff` does, through its pager, on
   * the terminal handed over for the while; an empty diff or a refusal is
   * said on the status row instead.
   */
  async showDiff(pane: ListedPane): Promise<void> {
    const parts = this.#parts;
    const { diffSummary, pageDiff } = await parts.later();
    const summary = await diffSummary(pane.id, { socket: parts.socket });
    if (typeof summary === "string") {
      parts.state.status = { text: `d: ${summary}`, tone: "error" };
      return;
    }
    const what = `${summary.worktree} (${summary.branch}) against ${summary.base}`;
    if (summary.files === 0) {
      parts.state.status = { text: `No changes in ${what}`, tone: "info" };
      return;
    }
    this.#attached = true;
    this.#paging = true;
    parts.preview.close();
    parts.hold.giveBack();
    let problem: string | null;
    try {
      problem = await pageDiff(pane.id, { socket: parts.socket });
    } finally {
      this.#paging = false;
      this.#attached = false;
      parts.hold.take();
      parts.painter.invalidate();
      parts.relist();
    }
    parts.state.status = problem ? { text: `d: ${problem}`, tone: "error" } : {
      text: `Diff of ${what}: ${summary.files} file${
        summary.files === 1 ? "" : "s"
      }, +${summary.added} −${summary.removed}`,
      tone: "info",
    };
  }

  /**
   * Lands `pane`'s worktree with `landWorktree`, as `skiff land PANE` does
   * (loaded when first asked for). A landing (not a dry run) is stopped by the
   * dashboard's end, and the end waits until it has put everything back.
   */
  async land(
    pane: string,
    options: { dryRun: boolean; progress?: (line: string) => void },
  ): Promise<LandResult> {
    const { landWorktree } = await importLater<typeof import("../land/mod.ts")>(
      "lib/land/mod.ts",
    );
    const client = await this.#parts.skiffd.client();
    if (options.dryRun) return await landWorktree(pane, { as: "pane", dryRun: true, client });
    const stop = new AbortController();
    const landing = landWorktree(pane, {
      as: "pane",
      client,
      onProgress: options.progress,
      signal: stop.signal,
    });
    this.#landing = { stop, settled: landing.then(() => {}, () => {}) };
    try {
      return await landing;
    } finally {
      this.#landing = undefined;
    }
  }

  /** Opens the Skiff agent, as `skiff skipper` does. */
  async openAgent(): Promise<void> {
    let opened;
    try {
      const { openSkiffAgent } = await importLater<typeof import("../skipper/open.ts")>(
        "lib/skipper/open.ts",
      );
      opened = await openSkiffAgent({ client: await this.#parts.skiffd.client() });
    } catch (error) {
      this.#parts.state.status = { text: `S: ${(error as Error).message}`, tone: "error" };
      return;
    }
    this.#parts.state.selected = "agent";
    await this.open(opened.pane.id);
  }

  /** Reads a result file. */
  async readResult(path: string): Promise<string> {
    try {
      return await Deno.readTextFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) throw new Error(`${path} is not written yet`);
      throw error;
    }
  }
}
