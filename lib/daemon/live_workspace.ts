/**
 * The daemon's live workspace: sessions and panes with their processes,
 * kept in step with the saved workspace file.
 *
 * @module
 */

import { basename, delimiter, resolve } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";
import type { Config, ConfigSource } from "../config/config.ts";
import { loginShell } from "../platform/spawn_self.ts";
import { which } from "../platform/shell.ts";
import { killSession, processStartTicks, sessionMembers } from "../platform/proc.ts";
import { CLIENT_ENV, MAX_PANE_SIZE, MIN_PANE_SIZE } from "../protocol/panes.ts";
import { AgentWatches, paneEventFields } from "./agent_watches.ts";
import type { EventBus } from "./events.ts";
import { Pane } from "./pane.ts";
import type { PaneWatch } from "./pane_watch.ts";
import type { SavedPane, SavedSession, WorkspaceData } from "./workspace.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import { paneInfo } from "./pane_info.ts";
import { WorkspaceSaver } from "./saver.ts";

/** The pattern a pane or session name must match. */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Default size of a pane made without one. */
export const DEFAULT_SIZE = { cols: 120, rows: 40 };

/** How long pane processes get to end after SIGHUP when the daemon stops. */
const SHUTDOWN_GRACE_MS = 1500;
/** How long a killed pane's processes get to end after SIGHUP. */
const KILL_GRACE_MS = 2000;

/**
 * SIGKILLs what is left of a pane's session, whose leader had start time
 * `leaderStart` at the hang-up; false where sessions cannot be read.
 */
function endSession(sid: number, leaderStart: number | undefined): boolean {
  if (Deno.build.os !== "linux") return false;
  killSession(sid, { leaderStart });
  return true;
}

/**
 * The start time of a pane's process while it runs. An exited one has none:
 * a process found under its pid now is another that got the pid again.
 */
function leaderStartOf(pane: Pane): number | undefined {
  return pane.status === "running" && pane.pid > 0 ? processStartTicks(pane.pid) : undefined;
}

/** Environment variables that must not leak from the daemon into panes. */
const DROPPED_ENV = ["TMUX", "TMUX_PANE", "SKIFF_PANE", "SKIFF_SESSION", "STY", "WINDOW"];

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
}

/** A size no smaller than a pane takes, nor larger. */
export function clampSize(cols: number, rows: number): { cols: number; rows: number } {
  return {
    cols: Math.min(MAX_PANE_SIZE.cols, Math.max(MIN_PANE_SIZE.cols, cols)),
    rows: Math.min(MAX_PANE_SIZE.rows, Math.max(MIN_PANE_SIZE.rows, rows)),
  };
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
  /** The sessions of killed panes whose processes get a moment before SIGKILL. */
  /** Sessions of killed panes still in their grace time: leader pid → its start time. */
  readonly #doomed = new Map<number, number | undefined>();
  /** Sessions that have sent `session-ended` in this run. */
  readonly #ended = new Set<string>();
  /** Sessions removed with their last pane, kept until their `session-ended` is sent. */
  readonly #removedSessions = new Map<string, SavedSession>();
  /** The agent watch of every pane. */
  readonly watches: AgentWatches;

  /** Wraps saved data; call {@linkcode LiveWorkspace.restore} to start the saved panes. */
  constructor(data: WorkspaceData, config: ConfigSource, options: LiveWorkspaceOptions) {
    this.#data = data;
    this.#configSource = config;
    this.#options = options;
    this.#saver = new WorkspaceSaver(data, options);
    this.watches = new AgentWatches({
      config: () => this.#configSource.recent(),
      events: options.events,
      log: options.log,
      save: () => this.save(),
    });
  }

  /** The current config, re-read when the file changed. */
  get #config(): Config {
    return this.#configSource.get();
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
    const env = Deno.env.toObject();
    for (const key of DROPPED_ENV) delete env[key];
    // The variables that follow the person come from the command that started the pane.
    if (saved.client_env) {
      for (const key of CLIENT_ENV) {
        if (saved.client_env[key] !== undefined) env[key] = saved.client_env[key];
        else delete env[key];
      }
    }
    const full: Record<string, string> = {
      ...env,
      TERM: "xterm-256color",
      COLORTERM: "truecolor",
      ...saved.env,
      SKIFF_PANE: saved.id,
      SKIFF_SESSION: saved.session,
      SKIFF_SOCKET: this.#options.socket,
    };
    const bin = this.#options.binDir;
    if (bin) full.PATH = full.PATH ? `${bin}${delimiter}${full.PATH}` : bin;
    return full;
  }

  /** Throws exit `NOT_FOUND` when `program` cannot be found or run with the pane's PATH. */
  #checkProgram(program: string, env: Record<string, string>, cwd: string): void {
    const path = program.includes("/") ? resolve(cwd, program) : program;
    if (which(path, env.PATH ?? "")) return;
    const where = program.includes("/") ? "does not exist or cannot be run" : "is not on the PATH";
    throw new SkiffError(`Cannot start '${program}': it ${where}; no pane was made`, {
      exit: "NOT_FOUND",
      details: { program },
    });
  }

  async #start(saved: SavedPane, argv: string[]): Promise<Pane> {
    const events = this.#options.events;
    const pane = await Pane.start(saved, {
      argv,
      env: this.#paneEnv(saved),
      scrollback: this.#config.daemon.scrollback,
      hooks: {
        ...this.watches.paneHooks(),
        exited: (p, exit) => {
          this.#options.log(`pane ${p.id} exited code=${exit.exitCode} signal=${exit.signal}`);
          this.watches.get(p)?.evaluate();
          p.endAttachments("exited");
          this.#sessionMayHaveEnded(p.saved.session, "exited");
        },
        title: (p, title) => events.emit("title", { ...paneEventFields(p), title }),
      },
    });
    this.#panes.set(saved.id, pane);
    this.watches.add(pane);
    // A session that runs a process again can end again.
    this.#ended.delete(saved.session);
    return pane;
  }

  /** Starts every saved pane as a new shell in its last folder, with a new generation. */
  async restore(): Promise<void> {
    for (const saved of this.#data.panes) {
      if (!isDirectory(saved.cwd)) {
        this.#options.log(`pane ${saved.id}: folder ${saved.cwd} is gone; using home`);
        saved.cwd = Deno.env.get("HOME") ?? "/";
      }
      saved.generation = this.#nextGeneration();
      saved.command = this.#shell();
      const pane = await this.#start(saved, saved.command);
      this.#options.events.emit("pane-restored", paneEventFields(pane));
      this.#options.log(`pane ${saved.id} (${saved.name}) restored as ${pane.pid}`);
    }
    if (this.#data.panes.length > 0) this.save();
  }

  /** A pane name made from `base` that no pane has: `base`, else `base-2`, `base-3`, … */
  uniquePaneName(base: string): string {
    return this.#uniqueName(base, (n) => !!this.#paneNamed(n));
  }

  /** A session name made from `base` that no session has. */
  uniqueSessionName(base: string): string {
    return this.#uniqueName(base, (n) => !!this.#sessionNamed(n));
  }

  #uniqueName(base: string, taken: (name: string) => boolean): string {
    let stem = base.replace(/[^A-Za-z0-9._-]/g, "-").replace(/^[^A-Za-z0-9]+/, "");
    if (stem === "" || /^[ps]\d+$/.test(stem)) stem = `pane-${stem}`;
    stem = stem.slice(0, 56);
    if (!taken(stem)) return stem;
    for (let n = 2;; n++) {
      if (!taken(`${stem}-${n}`)) return `${stem}-${n}`;
    }
  }

  #checkName(name: string, kind: string): void {
    if (!NAME_PATTERN.test(name) || /^[ps]\d+$/.test(name)) {
      throw new SkiffError(
        `Bad ${kind} name '${name}': use letters, digits, '.', '_' and '-', not an id like p1`,
        { exit: "USAGE" },
      );
    }
  }

  #paneNamed(name: string): SavedPane | undefined {
    return this.#data.panes.find((p) => p.name === name);
  }

  #sessionNamed(name: string): SavedSession | undefined {
    return this.#data.sessions.find((s) => s.name === name);
  }

  /** Starts a new pane. */
  async newPane(request: NewPaneRequest): Promise<Pane> {
    const project = request.project === undefined
      ? undefined
      : this.#config.projects.find((p) => p.name === request.project);
    if (request.project !== undefined && !project) {
      throw new SkiffError(`No project '${request.project}'. See 'skiff project ls'`, {
        exit: "NOT_FOUND",
      });
    }
    const cwd = request.cwd ?? project?.root ?? Deno.env.get("HOME") ?? "/";
    if (!isDirectory(cwd)) {
      throw new SkiffError(`Folder '${cwd}' does not exist`, { exit: "USAGE" });
    }
    const argv = request.command?.length ? request.command : project?.command ?? this.#shell();
    if (request.name !== undefined) {
      this.#checkName(request.name, "pane");
      if (this.#paneNamed(request.name)) {
        throw new SkiffError(`A pane named '${request.name}' exists already`, { exit: "CONFLICT" });
      }
    }
    const name = request.name ?? this.#uniqueName(basename(argv[0]), (n) => !!this.#paneNamed(n));
    let session = request.session === undefined || request.marks
      ? undefined
      : this.findSession(request.session);
    if (request.marks && request.session !== undefined && this.#sessionNamed(request.session)) {
      throw new SkiffError(`A session named '${request.session}' exists already`, {
        exit: "CONFLICT",
      });
    }
    if (!session) {
      const sessionName = request.session ??
        this.#uniqueName(name, (n) => !!this.#sessionNamed(n));
      this.#checkName(sessionName, "session");
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
    };
    this.#checkProgram(argv[0], this.#paneEnv(saved), cwd);
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
    this.#checkName(name, "pane");
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
    const pid = pane.pid;
    const leaderStart = leaderStartOf(pane);
    pane.kill("SIGHUP");
    // A program that ignores SIGHUP, or is slow to go, still goes: everything the pane's
    // program started shares its session. A stop before the timer still ends them.
    if (pid > 0) {
      this.#doomed.set(pid, leaderStart);
      setTimeout(() => {
        this.#doomed.delete(pid);
        if (!endSession(pid, leaderStart) && pane.status === "running") pane.killGroups();
      }, KILL_GRACE_MS);
    }
    this.#panes.delete(pane.id);
    this.watches.remove(pane);
    const index = this.#data.panes.findIndex((p) => p.id === pane.id);
    if (index !== -1) this.#data.panes.splice(index, 1);
    const session = pane.saved.session;
    if (!this.#data.panes.some((p) => p.session === session)) {
      const removed = this.#data.sessions.find((s) => s.id === session);
      if (removed) this.#removedSessions.set(session, removed);
      this.#data.sessions = this.#data.sessions.filter((s) => s.id !== session);
    }
    this.save();
    pane.dispose();
    this.#options.log(`pane ${pane.id} (${pane.name}) killed`);
    this.#options.events.emit("gone", paneEventFields(pane));
    this.#sessionMayHaveEnded(session, "killed");
  }

  /**
   * Sends `session-ended` once when a session has no running pane left: its
   * last pane was killed, or its last process exited. A stopping skiffd's
   * own ending of processes is not news.
   */
  #sessionMayHaveEnded(id: string, why: "killed" | "exited"): void {
    if (this.#stopping || this.#ended.has(id)) return;
    const panes = [...this.#panes.values()].filter((p) => p.saved.session === id);
    if (panes.some((p) => p.status === "running")) return;
    const saved = this.#data.sessions.find((s) => s.id === id);
    const known = saved ?? this.#removedSessions.get(id);
    if (!known) return;
    this.#ended.add(id);
    this.#removedSessions.delete(id);
    this.#options.log(`session ${id} (${known.name}) ended: ${why}`);
    this.#options.events.emit("session-ended", {
      session: id,
      session_name: known.name,
      marks: { ...known.marks },
      why,
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

  /** Describes a pane for `ls` and friends. */
  info(pane: Pane): PaneInfo {
    const session = this.#data.sessions.find((s) => s.id === pane.saved.session);
    return paneInfo(pane, session, this.watches.get(pane)?.tracker);
  }

  /**
   * Ends every process the panes started (the workspace file keeps the panes
   * for the next start): a hang-up first, then, after a moment, SIGKILL for
   * whatever is left in their sessions, so nothing outlives skiffd.
   */
  async shutdown(reason: string): Promise<void> {
    this.#stopping = true;
    this.watches.stopping();
    const panes = [...this.#panes.values()];
    const sessions = new Map(this.#doomed);
    for (const pane of panes) if (pane.pid > 0) sessions.set(pane.pid, leaderStartOf(pane));
    // Read the groups before the hang-up, for platforms without sessions to read.
    const groups = panes.filter((p) => p.status === "running")
      .map((p) => ({ pane: p, kill: () => p.killGroups() }));
    for (const pane of panes) {
      pane.endAttachments(reason);
      pane.kill("SIGHUP");
    }
    this.save();
    const deadline = Date.now() + SHUTDOWN_GRACE_MS;
    const alive = () =>
      panes.some((p) => p.status === "running") ||
      [...sessions.keys()].some((sid) => sessionMembers(sid).length > 0);
    while (alive() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const [sid, leaderStart] of sessions) endSession(sid, leaderStart);
    for (const { pane, kill } of groups) if (pane.status === "running") kill();
  }
}
