/**
 * What the watcher sees: the live panes, the Skiff agent's pane, and the
 * panes of open tasks with the task followed in each, read again from skiffd
 * and the ledger whenever the watcher is about to decide something.
 *
 * @module
 */

import { pathExists } from "../platform/files.ts";
import type { DaemonClient } from "../client/client.ts";
import {
  type Ledger,
  listedKey,
  openLedger,
  paneKey,
  type PaneLiveness,
  type TaskRow,
  unreachableKey,
} from "../ledger/mod.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import { SKIFF_AGENT_MARK } from "../protocol/sessions.ts";
import { type FollowedPane, followedPanes } from "./follow.ts";

/** What the view knows of one other host: where following it stands, and its panes. */
export interface HostPanes {
  /** The host. */
  host: string;
  /** `up` (its panes are known), `down` (it cannot be reached) or `unknown` (not yet). */
  state: "unknown" | "up" | "down";
  /** Its panes, with their ids as on the host. */
  panes: readonly PaneInfo[];
}

/** The panes and the ledger as of the last {@linkcode WatchView.refresh}. */
export class WatchView {
  readonly #ledgerPath: () => string;
  readonly #hosts: () => Iterable<HostPanes>;
  #ledger: Ledger | undefined;
  /** Every live pane, by key: its id, or `HOST:ID` for a pane on another host. */
  panes: Map<string, PaneInfo> = new Map();
  /** The hosts of the open tasks, with how many open tasks each has. */
  hosts: Map<string, number> = new Map();
  /** The Skiff agent's pane: the one whose session carries the skiff-agent mark. */
  agentPane: PaneInfo | undefined;
  /** The panes of open tasks (the Skiff agent's own left out), by pane id. */
  followed: Map<string, FollowedPane> = new Map();
  /** Row ids of the tasks another process is sending now. */
  sending: Set<number> = new Set();

  /**
   * A view of the ledger at `ledgerPath()` (asked each time: the folder can
   * move); `hosts` gives what is known of other hosts now (their followers').
   */
  constructor(ledgerPath: () => string, hosts: () => Iterable<HostPanes> = () => []) {
    this.#ledgerPath = ledgerPath;
    this.#hosts = hosts;
  }

  /** Reads the panes (through `call`) and the ledger again; returns the panes by key. */
  async refresh(call: DaemonClient["call"]): Promise<Map<string, PaneInfo>> {
    const { panes } = await call("pane.list");
    this.panes = new Map(panes.map((p) => [p.id, p]));
    this.agentPane = panes.find((p) => Object.hasOwn(p.session_marks, SKIFF_AGENT_MARK));
    const liveness = new Map<string, PaneLiveness>(
      panes.map((p) => [p.id, { generation: p.generation }]),
    );
    const names = new Map(panes.map((p) => [p.id, p.name]));
    for (const { host, state, panes: far } of this.#hosts()) {
      if (state === "down") liveness.set(unreachableKey(host), { generation: null });
      if (state !== "up") continue;
      liveness.set(listedKey(host), { generation: null });
      for (const p of far) {
        const key = paneKey(host, p.id);
        this.panes.set(key, p);
        liveness.set(key, { generation: p.generation });
        names.set(key, `${host}:${p.name}`);
      }
    }
    const rows = this.#rows();
    this.hosts = new Map();
    for (const row of rows) {
      if (row.kind !== "task" || !row.host || row.state === "done") continue;
      this.hosts.set(row.host, (this.hosts.get(row.host) ?? 0) + 1);
    }
    this.followed = followedPanes(rows, liveness, names);
    if (this.agentPane) this.followed.delete(this.agentPane.id);
    return this.panes;
  }

  /** The pending tasks of `followed` that no one is sending right now, oldest first. */
  waiting(followed: FollowedPane): TaskRow[] {
    return followed.pending.filter((t) => !this.sending.has(t.id));
  }

  /** Whether a task of the followed pane `pane` is being sent now. */
  beingSent(pane: string): boolean {
    return this.followed.get(pane)?.tasks.some((t) => this.sending.has(t.row.id)) ?? false;
  }

  /** Closes the ledger. */
  close(): void {
    this.#ledger?.close();
    this.#ledger = undefined;
  }

  #rows(): TaskRow[] {
    const path = this.#ledgerPath();
    if (!pathExists(path)) {
      this.sending = new Set();
      return [];
    }
    this.#ledger ??= openLedger(path);
    const list = this.#ledger.list({}, null);
    this.sending = this.#ledger.beingSent();
    return list.entries.flatMap((e) => [e.row, ...(e.tasks ?? []).map((t) => t.row)]);
  }
}
