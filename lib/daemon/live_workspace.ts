/**
 * The daemon's live workspace: sessions and panes with their processes,
 * kept in step with the saved workspace file.
 *
 * @module
 */

import { basename } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";
import type { Config, Project } from "../config/config.ts";
import type { ConfigSource } from "../config/config_source.ts";
import { loginShell } from "../platform/spawn_self.ts";
import { AgentWatches, paneEventFields } from "./agent_watches.ts";
import type { EventBus } from "./events.ts";
import { type AttachEndDetails, Pane, type PaneAdoptOptions, type PaneHooks } from "./pane.ts";
import type { TrackerState } from "../agents/tracker.ts";
import type { PtyExit } from "../platform/pty.ts";
import type { PaneWatch } from "./pane_watch.ts";
import type { SavedPane, SavedSession, WorkspaceData } from "./workspace.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import { paneInfo, type PaneWorktreeView } from "./pane_info.ts";
import { WorkspaceSaver } from "./saver.ts";
import { checkName, uniqueName } from "./names.ts";
import { checkProgram, clampSize, DEFAULT_SIZE, paneEnv } from "./pane_env.ts";
import { type DoomedSession, SessionReaper } from "./reaper.ts";
import { type EndedSessions, SessionEndings } from "./session_endings.ts";
import { ScreenSaver, type ScreenSaveStats } from "./screen_saver.ts";
import { ScreenStore } from "./screen_store.ts";
import { restorePanes } from "./restore.ts";
import { Conversations } from "./conversations.ts";
import { planResume, typeIntoNewShell } from "./resume.ts";
import { selfHookCommand } from "../agents/launch.ts";
import { stateDir } from "../config/paths.ts";
import { join } from "../platform/path.ts";
import type { PaneResume } from "../protocol/panes.ts";

/** What `pane.new` asks for. */
export interface NewPaneRequest {
  /** The working folder (absolute). */
  cwd?: string;
  /** The project. */
  project?: string;
  /** The pane's name. */
  name?: string;
  /** The session to join or make. */
  session?: string;
  /** Columns. */
  cols?: number;
  /** Rows. */
  rows?: number;
  /** Extra environment. */
  env?: Record<string, string>;
  /** The command; the project's or the shell when empty. */
  command?: string[];
  /**
   * Marks for a new session: with them the pane always starts a new session
   * (named `session`, which must be free) that carries them from the start.
   */
  marks?: Record<string, string>;
  /** The asking command's own environment, for the variables of `CLIENT_ENV`. */
  clientEnv?: Record<string, string>;
  /** The id of the worktree made for the pane (see {@linkcode PaneWorktrees}). */
  worktree?: string;
  /** A restore never resumes the pane's agent (`skiff new --no-resume`). */
  noResume?: boolean;
  /** The agent the command starts (`skiff new --agent`): see `NewPaneParams.agent`. */
  agent?: { id: string; args?: string[]; conversation?: string };
}

/**
 * What the workspace asks of the worktrees a pane may have (`lib/worktree`
 * answers): a pane keeps only its worktree's id.
 */
export interface PaneWorktrees {
  /** What the pane's description shows of worktree `id`, or null. */
  paneView(id: string | undefined): PaneWorktreeView | null;
  /** The folder of worktree `id`, for a restored pane whose last folder is gone. */
  folderOf(id: string | undefined): string | undefined;
}

/** What a workspace keeps only in memory (see {@linkcode LiveWorkspace.memory}). */
export interface WorkspaceMemory {
  /** The workspace as saved, with every change (also one a full disk kept from the file). */
  data: WorkspaceData;
  /** The last generation given, so the next one is later. */
  last_generation: number;
  /** Which sessions told their end, and those removed whose end is still to be told. */
  endings: EndedSessions;
  /** Killed panes whose leftovers are still to be ended. */
  doomed: DoomedSession[];
}

/** Options for {@linkcode LiveWorkspace}. */
export interface LiveWorkspaceOptions {
  /** Where the workspace is saved. */
  file: string;
  /** The socket path, given to panes as `SKIFF_SOCKET`. */
  socket: string;
  /** The event stream. */
  events: EventBus;
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
  /** A folder put first on every pane's PATH (it holds the `skiff` script). */
  binDir?: string;
  /**
   * Whether this skiffd may still write the workspace file: false once
   * another skiffd owns the socket's path (and so the file).
   */
  mayWrite?: () => boolean;
  /** The folder of the panes' saved screens (see `screen_store.ts`). */
  screens: string;
  /** The worktrees of the panes. */
  worktrees?: PaneWorktrees;
}

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** Sessions and panes, live. */
export class LiveWorkspace {
  readonly #data: WorkspaceData;
  readonly #panes = new Map<string, Pane>();
  readonly #options: LiveWorkspaceOptions;
  readonly #configSource: ConfigSource;
  #lastGeneration = 0;
  #stopping = false;
  readonly #saver: WorkspaceSaver;
  readonly #reaper = new SessionReaper();
  readonly #screens: ScreenStore;
  readonly #screenSaver: ScreenSaver;
  readonly #endings: SessionEndings;
  /** The agent watch of every pane. */
  readonly watches: AgentWatches;
  /** Each pane's agent conversation. */
  readonly conversations: Conversations;

  /** Wraps saved data; call {@linkcode LiveWorkspace.restore} to start the saved panes. */
  constructor(data: WorkspaceData, config: ConfigSource, options: LiveWorkspaceOptions) {
    this.#data = data;
    this.#configSource = config;
    this.#options = options;
    this.#saver = new WorkspaceSaver(data, options);
    this.#screens = new ScreenStore(options.screens, { log: options.log });
    this.#screenSaver = new ScreenSaver({ store: this.#screens, log: options.log });
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

  /** The agent watch of a pane; throws NOT_FOUND when the pane is gone. */
  watchOf(pane: Pane): PaneWatch {
    return this.watches.of(pane);
  }

  /** Every live pane, in creation order. */
  get panes(): Pane[] {
    return this.#data.panes.map((p) => this.#panes.get(p.id)).filter((p): p is Pane => !!p);
  }

  /** Every session, in creation order. */
  get sessions(): SavedSession[] {
    return this.#data.sessions;
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

  #nextGeneration(): number {
    this.#lastGeneration = Math.max(Date.now(), this.#lastGeneration + 1);
    return this.#lastGeneration;
  }

  #shell(): string[] {
    return [this.#config.daemon.shell ?? loginShell()];
  }

  #paneEnv(saved: SavedPane): Record<string, string> {
    return paneEnv(saved, { socket: this.#options.socket, binDir: this.#options.binDir });
  }

  /** The callbacks every pane of this workspace gets, started here or adopted. */
  #paneHooks(): PaneHooks {
    const events = this.#options.events;
    const watchHooks = this.watches.paneHooks();
    return {
      ...watchHooks,
      activity: (p) => {
        watchHooks.activity(p);
        this.#screenSaver.changed(p);
      },
      exited: (p, exit) => this.#exited(p, exit),
      title: (p, title) => events.emit("title", { ...paneEventFields(p), title }),
    };
  }

  async #start(saved: SavedPane, argv: string[], prelude?: string): Promise<Pane> {
    const pane = await Pane.start(saved, {
      argv,
      env: this.#paneEnv(saved),
      scrollback: this.#config.daemon.scrollback,
      prelude,
      hooks: this.#paneHooks(),
    });
    this.#follow(pane);
    this.#screenSaver.add(pane, { scrollback: this.#config.daemon.scrollback });
    return pane;
  }

  #follow(pane: Pane): void {
    this.#panes.set(pane.id, pane);
    this.watches.add(pane);
    if (pane.status === "running") this.#endings.running(pane.saved.session);
  }

  #exited(pane: Pane, exit: PtyExit): void {
    const code = exit.unknown ? "unknown" : exit.exitCode;
    this.#options.log(`pane ${pane.id} exited code=${code} signal=${exit.signal}`);
    if (!this.#stopping) {
      // Its last screen and its exit are kept, so the pane stays exited through a restart.
      this.#screenSaver.saveNow(pane);
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
    this.#screens.prune(new Set(this.#data.panes.map((p) => p.id)));
    await restorePanes(this.#data.panes, {
      screens: this.#screens,
      log: this.#options.log,
      shell: () => this.#shell(),
      nextGeneration: () => this.#nextGeneration(),
      // A pane made in a worktree comes back in it while the worktree is there.
      worktreeFolder: (saved) => this.#options.worktrees?.folderOf(saved.worktree),
      startShell: (saved, prelude) => this.#start(saved, saved.command, prelude),
      startExited: (saved, screen) => {
        const pane = Pane.exited(saved, {
          scrollback: this.#config.daemon.scrollback,
          exit: { exitCode: saved.exited!.code, signal: saved.exited!.signal },
          exitedAt: Date.parse(saved.exited!.at),
          screen,
        });
        this.#follow(pane);
        return pane;
      },
      planResume: (saved) =>
        planResume(saved, {
          registry: this.watches.registry(),
          config: this.#config,
          session: this.#data.sessions.find((s) => s.id === saved.session),
          env: this.#paneEnv(saved),
          hookCommand: selfHookCommand,
          hookDir: join(stateDir(), "hooks"),
        }),
      started: (pane, resume) => this.#resumeIn(pane, resume),
      restored: (pane) => this.#options.events.emit("pane-restored", paneEventFields(pane)),
    });
    if (this.#data.panes.length > 0) this.save();
    // The new screens (the old history, the marker) are saved before anything else happens.
    for (const pane of this.#panes.values()) {
      if (pane.status === "running") this.#screenSaver.changed(pane);
    }
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
    make: (saved: SavedPane, base: Pick<PaneAdoptOptions, "hooks" | "scrollback">) => {
      pane: Pane;
      tracker?: TrackerState;
    },
  ): Pane {
    const saved = this.#data.panes.find((p) => p.id === id);
    if (!saved) throw new Error(`the workspace has no pane ${id}`);
    const scrollback = this.#config.daemon.scrollback;
    const { pane, tracker } = make(saved, { hooks: this.#paneHooks(), scrollback });
    this.#follow(pane);
    if (pane.status === "running") this.#screenSaver.add(pane, { scrollback });
    if (tracker) this.watches.get(pane)?.tracker.restore(tracker);
    return pane;
  }

  /** What this workspace keeps only in memory, for a new skiffd after an upgrade. */
  memory(): WorkspaceMemory {
    return {
      data: structuredClone(this.#data),
      last_generation: this.#lastGeneration,
      endings: this.#endings.save(),
      doomed: this.#reaper.doomed(),
    };
  }

  /** Takes up what a skiffd before this one kept in memory (see {@linkcode LiveWorkspace.memory}). */
  recall(memory: Omit<WorkspaceMemory, "data">): void {
    this.#lastGeneration = Math.max(this.#lastGeneration, memory.last_generation);
    this.#endings.recall(memory.endings);
    for (const doomed of memory.doomed) this.#reaper.doom(doomed);
  }

  /**
   * After a restore: types the resume line of `pane`'s agent once its new
   * shell shows its prompt (see `resume.ts`), in the background, and keeps
   * what happened for `skiff explain`. A skipped or failed resume keeps the
   * conversation's id, no longer live.
   */
  #resumeIn(pane: Pane, resume: PaneResume | undefined): void {
    pane.resume = resume;
    if (!resume) return;
    const log = this.#options.log;
    if (resume.state !== "waiting") {
      log(`pane ${pane.id}: ${resume.agent} not resumed: ${resume.why}`);
      this.conversations.agentLeft(pane);
      return;
    }
    log(`pane ${pane.id}: resuming ${resume.agent} conversation ${resume.conversation}`);
    typeIntoNewShell(pane, this.watchOf(pane), resume.line!).then(() => {
      if (pane.resume === resume) pane.resume = { ...resume, state: "typed" };
      log(`pane ${pane.id}: typed ${resume.agent}'s resume line`);
    }, (error) => {
      const why = (error as Error)?.message ?? String(error);
      if (pane.resume === resume) pane.resume = { ...resume, state: "failed", why };
      log(`pane ${pane.id}: ${resume.agent} not resumed: ${why}`);
      if (this.#panes.get(pane.id) === pane) this.conversations.agentLeft(pane);
    });
  }

  /** What saving screens has cost so far. */
  get screenSaves(): ScreenSaveStats {
    return this.#screenSaver.stats;
  }

  /** A pane name made from `base` that no pane has: `base`, else `base-2`, `base-3`, … */
  uniquePaneName(base: string): string {
    return uniqueName(base, (n) => !!this.#paneNamed(n));
  }

  /** A session name made from `base` that no session has. */
  uniqueSessionName(base: string): string {
    return uniqueName(base, (n) => !!this.#sessionNamed(n));
  }

  #paneNamed(name: string): SavedPane | undefined {
    return this.#data.panes.find((p) => p.name === name);
  }

  #sessionNamed(name: string): SavedSession | undefined {
    return this.#data.sessions.find((s) => s.name === name);
  }

  /**
   * Checks what a new pane asks for, changing nothing: its project, its
   * name, and the session it would make. Returns the project.
   */
  checkNewPane(request: NewPaneRequest): Project | undefined {
    const project = request.project === undefined
      ? undefined
      : this.#config.projects.find((p) => p.name === request.project);
    if (request.project !== undefined && !project) {
      throw new SkiffError(`No project '${request.project}'. See 'skiff project ls'`, {
        exit: "NOT_FOUND",
      });
    }
    if (request.name !== undefined) {
      checkName(request.name, "pane");
      if (this.#paneNamed(request.name)) {
        throw new SkiffError(`A pane named '${request.name}' exists already`, { exit: "CONFLICT" });
      }
    }
    if (request.marks && request.session !== undefined && this.#sessionNamed(request.session)) {
      throw new SkiffError(`A session named '${request.session}' exists already`, {
        exit: "CONFLICT",
      });
    }
    if (request.session !== undefined && !this.findSession(request.session)) {
      checkName(request.session, "session");
    }
    return project;
  }

  /** Starts a new pane. */
  async newPane(request: NewPaneRequest): Promise<Pane> {
    const project = this.checkNewPane(request);
    const cwd = request.cwd ?? project?.root ?? Deno.env.get("HOME") ?? "/";
    if (!isDirectory(cwd)) {
      throw new SkiffError(`Folder '${cwd}' does not exist`, { exit: "USAGE" });
    }
    const argv = request.command?.length ? request.command : project?.command ?? this.#shell();
    const name = request.name ?? uniqueName(basename(argv[0]), (n) => !!this.#paneNamed(n));
    let session = request.session === undefined || request.marks
      ? undefined
      : this.findSession(request.session);
    if (!session) {
      const sessionName = request.session ??
        uniqueName(name, (n) => !!this.#sessionNamed(n));
      checkName(sessionName, "session");
      session = {
        id: `s${this.#data.next_session++}`,
        name: sessionName,
        project: project?.name,
        marks: { ...request.marks },
        created: new Date().toISOString(),
      };
    }
    const size = clampSize(request.cols ?? DEFAULT_SIZE.cols, request.rows ?? DEFAULT_SIZE.rows);
    const saved: SavedPane = {
      id: `p${this.#data.next_pane}`,
      name,
      session: session.id,
      project: project?.name ?? session.project,
      cwd,
      command: argv,
      env: request.env ?? {},
      ...(request.clientEnv ? { client_env: request.clientEnv } : {}),
      cols: size.cols,
      rows: size.rows,
      created: new Date().toISOString(),
      generation: this.#nextGeneration(),
      ...(request.worktree ? { worktree: request.worktree } : {}),
      ...(request.noResume ? { no_resume: true } : {}),
      ...(request.agent
        ? { agent_launch: { agent: request.agent.id, args: request.agent.args ?? [] } }
        : {}),
    };
    if (request.agent?.conversation) {
      this.conversations.started({ saved }, request.agent.id, request.agent.conversation);
    }
    checkProgram(argv[0], this.#paneEnv(saved), cwd);
    this.#data.next_pane++;
    if (!this.#data.sessions.includes(session)) this.#data.sessions.push(session);
    this.#data.panes.push(saved);
    this.save();
    const pane = await this.#start(saved, argv);
    this.#options.log(`pane ${saved.id} (${saved.name}) started: ${argv.join(" ")}`);
    this.#options.events.emit("pane-created", {
      ...paneEventFields(pane),
      session: session.id,
      project: saved.project ?? null,
      command: argv,
    });
    for (const [key, value] of Object.entries(request.marks ?? {})) {
      this.#options.events.emit("session-marked", {
        session: session.id,
        session_name: session.name,
        key,
        value,
      });
    }
    return pane;
  }

  /**
   * Finds a pane by id (`p3`), name, or `project/name`. Throws NOT_FOUND.
   */
  resolvePane(ref: string): Pane {
    let saved: SavedPane | undefined;
    if (/^p\d+$/.test(ref)) {
      saved = this.#data.panes.find((p) => p.id === ref);
    } else if (ref.includes("/")) {
      const [project, name] = ref.split("/", 2);
      saved = this.#data.panes.find((p) => p.name === name && p.project === project);
    } else {
      saved = this.#paneNamed(ref);
    }
    const pane = saved && this.#panes.get(saved.id);
    if (!pane) {
      throw new SkiffError(`No pane '${ref}'. See 'skiff ls'`, {
        exit: "NOT_FOUND",
        details: { pane: ref },
      });
    }
    return pane;
  }

  /** Finds a session by id, name, or by one of its panes; `undefined` if none. */
  findSession(ref: string): SavedSession | undefined {
    const direct = this.#data.sessions.find((s) => s.id === ref || s.name === ref);
    if (direct) return direct;
    const pane = this.#data.panes.find((p) => p.id === ref || p.name === ref);
    return pane && this.#data.sessions.find((s) => s.id === pane.session);
  }

  /** Like {@linkcode LiveWorkspace.findSession}, but throws NOT_FOUND. */
  resolveSession(ref: string): SavedSession {
    const session = this.findSession(ref);
    if (!session) {
      throw new SkiffError(`No session '${ref}'. See 'skiff ls'`, { exit: "NOT_FOUND" });
    }
    return session;
  }

  /** Renames a pane. */
  rename(pane: Pane, name: string): void {
    checkName(name, "pane");
    const other = this.#paneNamed(name);
    if (other && other.id !== pane.id) {
      throw new SkiffError(`A pane named '${name}' exists already`, { exit: "CONFLICT" });
    }
    const old = pane.saved.name;
    pane.saved.name = name;
    // A pane alone in a session named after it takes the session's name with it,
    // so `ls` does not show the old name; a session named on purpose keeps its name.
    const session = this.#data.sessions.find((s) => s.id === pane.saved.session);
    const alone = !this.#data.panes.some((p) =>
      p.session === pane.saved.session && p.id !== pane.id
    );
    if (session && alone && session.name === old && !this.#sessionNamed(name)) {
      session.name = name;
    }
    this.save();
    this.#options.events.emit("pane-renamed", { ...paneEventFields(pane), old_name: old });
  }

  /** Ends a pane's process and removes the pane; its id is never used again. */
  kill(pane: Pane): void {
    this.#reaper.hangUp(pane);
    this.#panes.delete(pane.id);
    this.watches.remove(pane);
    this.#screenSaver.forget(pane);
    this.#screens.remove(pane.id);
    this.conversations.forget(pane);
    const index = this.#data.panes.findIndex((p) => p.id === pane.id);
    if (index !== -1) this.#data.panes.splice(index, 1);
    const session = pane.saved.session;
    if (!this.#data.panes.some((p) => p.session === session)) {
      const removed = this.#data.sessions.find((s) => s.id === session);
      if (removed) this.#endings.removed(removed);
      this.#data.sessions = this.#data.sessions.filter((s) => s.id !== session);
    }
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
      known: this.#data.sessions.find((s) => s.id === id),
    });
  }

  /** Sets (`value` given) or clears (`null`) a mark on a session. */
  mark(session: SavedSession, key: string, value: string | null): void {
    if (value === null) delete session.marks[key];
    else session.marks[key] = value;
    this.save();
    this.#options.events.emit("session-marked", {
      session: session.id,
      session_name: session.name,
      key,
      value,
    });
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
    const session = this.#data.sessions.find((s) => s.id === pane.saved.session);
    return paneInfo(
      pane,
      session,
      this.watches.get(pane)?.tracker,
      this.#options.worktrees?.paneView(pane.saved.worktree),
    );
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
    this.#screenSaver.saveAllAndStop();
    const ending = this.#reaper.endAll(
      [...this.#panes.values()],
      (pane) => pane.endAttachments(reason, options),
    );
    this.save();
    await ending;
  }
}
