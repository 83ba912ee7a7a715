/**
 * The daemon's live workspace: sessions and panes with their processes,
 * kept in step with the saved workspace file. What the records say is
 * here (new, rename, mark, kill, restore, the memory an upgrade hands on);
 * the panes that run are `pane_lives.ts`'s.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";
import type { Config } from "../../config/config.ts";
import type { ConfigSource } from "../../config/config_source.ts";
import {
  AgentWatches,
  type AttachEndDetails,
  checkProgram,
  listedPane,
  type NewPaneRequest,
  type Pane,
  paneEnv,
  paneEventFields,
  paneInfo,
  type PaneWatch,
  planNewPane,
  SessionReaper,
} from "../panes/mod.ts";
import {
  type SavedPane,
  type SavedSession,
  type WorkspaceData,
  WorkspaceRecords,
  WorkspaceSaver,
} from "../records/mod.ts";
import { loginShell } from "../../platform/spawn_self.ts";
import type { PtyExit } from "../../platform/pty.ts";
import type { LiveWorkspaceOptions, MakeAdopted, WorkspaceMemory } from "./workspace_options.ts";
import type { PaneInfo } from "../../protocol/panes.ts";
import type { ListedPane } from "../../protocol/workspace.ts";
import { SessionEndings } from "./session_endings.ts";
import { PaneScreens } from "../screens/mod.ts";
import { Conversations, restorePanes, resumeSteps } from "../restore/mod.ts";
import { PaneLives } from "./pane_lives.ts";
import { bringScreens } from "./bring_screens.ts";

/** Sessions and panes, live. */
export class LiveWorkspace {
  /** The sessions and panes as saved: lookups, names, records. */
  readonly records: WorkspaceRecords;
  readonly #panes: PaneLives;
  readonly #options: LiveWorkspaceOptions;
  readonly #configSource: ConfigSource;
  #stopping = false;
  readonly #saver: WorkspaceSaver;
  readonly #reaper = new SessionReaper();
  /** The panes' screens: saved for a restore, and asleep while quiet. */
  readonly screens: PaneScreens;
  readonly #endings: SessionEndings;
  /** The agent watch of every pane. */
  readonly watches: AgentWatches;
  /** Each pane's agent conversation. */
  readonly conversations: Conversations;

  /** Wraps saved data; call {@linkcode LiveWorkspace.restore} to start the saved panes. */
  constructor(data: WorkspaceData, config: ConfigSource, options: LiveWorkspaceOptions) {
    this.records = new WorkspaceRecords(data);
    this.#configSource = config;
    this.#options = options;
    this.#saver = new WorkspaceSaver(data, options);
    this.screens = new PaneScreens({
      dir: options.screens,
      log: options.log,
      panes: () => this.#panes.values(),
      sleepAfterSeconds: () => this.#config.daemon.screenSleepSeconds,
    });
    this.#endings = new SessionEndings(options);
    this.conversations = new Conversations({
      save: () => this.save(),
      log: options.log,
      env: (pane) => this.#paneEnv(pane.saved),
    });
    this.watches = new AgentWatches({
      config: () => this.#configSource.recent(),
      events: options.events,
      log: options.log,
      save: () => this.save(),
      agentLeft: (pane) => this.conversations.agentLeft(pane),
    });
    this.#panes = new PaneLives({
      events: options.events,
      watches: this.watches,
      screenSaver: this.screens.saver,
      env: (saved) => this.#paneEnv(saved),
      scrollback: () => this.#config.daemon.scrollback,
      exited: (pane, exit) => this.#exited(pane, exit),
      running: (session) => this.#endings.running(session),
    });
  }

  /** The current config, re-read when the file changed. */
  get #config(): Config {
    return this.#configSource.get();
  }

  /** Writes a line to the daemon's log. */
  log(line: string): void {
    this.#options.log(line);
  }

  /** The current config. */
  get config(): Config {
    return this.#config;
  }

  /** Why `projects.toml` could not be read when last looked at (the last good config stands), or null. */
  get configError(): string | null {
    return this.#configSource.error;
  }

  /** The agent watch of a pane; throws NOT_FOUND when the pane is gone. */
  watchOf(pane: Pane): PaneWatch {
    return this.watches.of(pane);
  }

  /** Every live pane, in creation order. */
  get panes(): Pane[] {
    return this.records.data.panes.map((p) => this.#panes.get(p.id)).filter((p): p is Pane => !!p);
  }

  /** Every session, in creation order. */
  get sessions(): SavedSession[] {
    return this.records.data.sessions;
  }

  /**
   * Saves the workspace file. A failed save (a full disk, a read-only
   * folder) leaves the old file whole and skiffd running (see `saver.ts`):
   * the next save, or {@linkcode LiveWorkspace.saveIfBehind}, writes it all.
   */
  save(): void {
    this.#saver.save();
  }

  /** Saves again when the last save failed or was put off. */
  saveIfBehind(): void {
    this.#saver.saveIfBehind();
  }

  /** Why the last save failed, or `null` when the file holds the workspace. */
  get saveError(): string | null {
    return this.#saver.error;
  }

  #shell(): string[] {
    return [this.#config.daemon.shell ?? loginShell()];
  }

  #paneEnv(saved: SavedPane): Record<string, string> {
    return paneEnv(saved, { socket: this.#options.socket, binDir: this.#options.binDir });
  }

  #exited(pane: Pane, exit: PtyExit): void {
    const code = exit.unknown ? "unknown" : exit.exitCode;
    this.#options.log(`pane ${pane.id} exited code=${code} signal=${exit.signal}`);
    if (!this.#stopping) {
      // Its last screen and its exit are kept, so the pane stays exited through a restart.
      this.screens.saver.saveNow(pane);
      pane.saved.exited = {
        code: exit.exitCode,
        signal: exit.signal,
        at: new Date(pane.exitedAt ?? Date.now()).toISOString(),
      };
      this.save();
    }
    this.watches.get(pane)?.evaluate();
    pane.endAttachments("exited");
    this.#sessionMayHaveEnded(pane.saved.session, "exited");
  }

  /**
   * Brings every saved pane back (see `restore.ts`): one whose process had
   * exited stays exited with its last screen; every other one gets a new
   * shell under the old process's history and a marker line.
   */
  async restore(): Promise<void> {
    const data = this.records.data;
    const started = performance.now();
    this.screens.store.prune(new Set(data.panes.map((p) => p.id)));
    await restorePanes(data.panes, {
      screens: this.screens.store,
      log: this.#options.log,
      shell: () => this.#shell(),
      nextGeneration: () => this.records.nextGeneration(),
      // A pane made in a worktree comes back in it while the worktree is there.
      worktreeFolder: (saved) => this.#options.worktrees?.folderOf(saved.worktree),
      // Each pane is back once its shell runs; its screen is built after, or when first used.
      startShell: (saved, prelude) =>
        this.#panes.start(saved, saved.command, prelude, { deferScreen: true }),
      startExited: (saved, screen) => this.#panes.startExited(saved, screen),
      ...resumeSteps({
        registry: () => this.watches.registry(),
        config: () => this.#config,
        session: (saved) => this.records.session(saved.session),
        env: (saved) => this.#paneEnv(saved),
        watch: (p) => this.watchOf(p),
        log: this.#options.log,
        live: (p) => this.#panes.get(p.id) === p,
        agentLeft: (p) => this.conversations.agentLeft(p),
      }),
      restored: (pane) => this.#options.events.emit("pane-restored", paneEventFields(pane)),
    });
    if (data.panes.length > 0) this.save();
    // The new screens (the old history, the marker) are saved before anything else happens;
    // one still to be built holds what its files hold, and is saved once it changes.
    for (const pane of this.#panes.values()) {
      if (pane.status === "running" && !pane.deferred) this.screens.saver.changed(pane);
    }
    if (data.panes.length > 0) {
      this.#options.log(
        `restore: ${data.panes.length} panes back in ${Math.round(performance.now() - started)} ms`,
      );
    }
    void bringScreens(() => this.#panes.values(), {
      stopping: () => this.#stopping,
      log: this.#options.log,
    });
  }

  /**
   * Takes over pane `id` of a skiffd before this one (`skiff daemon
   * upgrade`): `make` builds its {@linkcode Pane} (see {@linkcode Pane.adopt})
   * from the options given, and it goes on as if this workspace had started
   * it, with its agent watch where it was. Until every pane is taken over,
   * the workspace lists only those that are.
   */
  adopt(
    id: string,
    make: MakeAdopted,
  ): Pane {
    const saved = this.records.data.panes.find((p) => p.id === id);
    if (!saved) throw new Error(`the workspace has no pane ${id}`);
    const { pane, tracker } = this.#panes.adopt(saved, make);
    if (tracker) this.watches.get(pane)?.tracker.restore(tracker);
    return pane;
  }

  /** What this workspace keeps only in memory, for a new skiffd after an upgrade. */
  memory(): WorkspaceMemory {
    return {
      data: structuredClone(this.records.data),
      last_generation: this.records.lastGeneration,
      endings: this.#endings.save(),
      doomed: this.#reaper.doomed(),
    };
  }

  /** Takes up what a skiffd before this one kept in memory (see {@linkcode LiveWorkspace.memory}). */
  recall(memory: Omit<WorkspaceMemory, "data">): void {
    this.records.recallGeneration(memory.last_generation);
    this.#endings.recall(memory.endings);
    for (const doomed of memory.doomed) this.#reaper.doom(doomed);
  }

  /** Starts a new pane. */
  async newPane(request: NewPaneRequest): Promise<Pane> {
    const { saved, session, argv } = planNewPane(this.records, request, {
      config: this.#config,
      shell: () => this.#shell(),
    });
    if (request.agent?.conversation) {
      this.conversations.started({ saved }, request.agent.id, request.agent.conversation);
    }
    checkProgram(argv[0], this.#paneEnv(saved), saved.cwd);
    this.records.add(saved, session);
    this.save();
    const pane = await this.#panes.start(saved, argv);
    this.#options.log(`pane ${saved.id} (${saved.name}) started: ${argv.join(" ")}`);
    this.#options.events.emit("pane-created", {
      ...paneEventFields(pane),
      session: session.id,
      project: saved.project ?? null,
      command: argv,
    });
    for (const [key, value] of Object.entries(request.marks ?? {})) {
      this.#marked(session, key, value);
    }
    return pane;
  }

  /**
   * Finds a pane by id (`p3`), name, or `project/name`. Throws NOT_FOUND.
   */
  resolvePane(ref: string): Pane {
    const saved = this.records.findPane(ref);
    const pane = saved && this.#panes.get(saved.id);
    if (!pane) {
      throw new SkiffError(`No pane '${ref}'. See 'skiff ls'`, {
        exit: "NOT_FOUND",
        details: { pane: ref },
      });
    }
    return pane;
  }

  /** Renames a pane. */
  rename(pane: Pane, name: string): void {
    const old = this.records.rename(pane.saved, name);
    this.save();
    this.#options.events.emit("pane-renamed", { ...paneEventFields(pane), old_name: old });
  }

  /** Ends a pane's process and removes the pane; its id is never used again. */
  kill(pane: Pane): void {
    this.#reaper.hangUp(pane);
    this.#panes.delete(pane.id);
    this.watches.remove(pane);
    this.screens.forget(pane);
    this.conversations.forget(pane);
    const session = pane.saved.session;
    const removed = this.records.remove(pane.id, session);
    if (removed) this.#endings.removed(removed);
    this.save();
    pane.dispose();
    this.#options.log(`pane ${pane.id} (${pane.name}) killed`);
    this.#options.events.emit("gone", paneEventFields(pane));
    this.#sessionMayHaveEnded(session, "killed");
  }

  /** Sends `session-ended` once when a session has no running pane left (see `session_endings.ts`). */
  #sessionMayHaveEnded(id: string, why: "killed" | "exited"): void {
    if (this.#stopping) return;
    this.#endings.mayHaveEnded(id, why, {
      panes: this.#panes.values(),
      known: this.records.session(id),
    });
  }

  /** Sets (`value` given) or clears (`null`) a mark on a session. */
  mark(session: SavedSession, key: string, value: string | null): void {
    if (value === null) delete session.marks[key];
    else session.marks[key] = value;
    this.save();
    this.#marked(session, key, value);
  }

  #marked(session: SavedSession, key: string, value: string | null): void {
    const fields = { session: session.id, session_name: session.name, key, value };
    this.#options.events.emit("session-marked", fields);
  }

  /** Re-reads each pane's folder and saves when one changed. */
  refreshCwds(): void {
    let changed = false;
    for (const pane of this.#panes.values()) changed = pane.refreshCwd() || changed;
    if (changed) this.save();
  }

  /** Whether skiffd is stopping: its panes' processes are ending. */
  get stopping(): boolean {
    return this.#stopping;
  }

  /** Describes a pane for `ls` and friends. */
  info(pane: Pane): PaneInfo {
    return paneInfo(pane, this.listed(pane));
  }

  /** Describes a pane for a listing of the whole workspace: no look at the process in front. */
  listed(pane: Pane): ListedPane {
    return listedPane(pane, {
      session: this.records.session(pane.saved.session),
      tracker: this.watches.get(pane)?.tracker,
      worktree: this.#options.worktrees?.paneView(pane.saved.worktree),
    });
  }

  /**
   * Ends every process the panes started (the workspace file keeps the panes
   * for the next start): a hang-up first, then, after a moment, SIGKILL for
   * whatever is left in their sessions, so nothing outlives skiffd.
   * Attached terminals hear `reason`, and `returning` when a skiffd follows.
   */
  async shutdown(reason: string, options: AttachEndDetails = {}): Promise<void> {
    this.#stopping = true;
    this.watches.stopping();
    // The screens as they are now, before the hang-up changes them.
    this.screens.stop();
    const ending = this.#reaper.endAll(
      [...this.#panes.values()],
      (pane) => pane.endAttachments(reason, options),
    );
    this.save();
    await ending;
  }
}
