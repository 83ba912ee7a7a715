/**
 * The workspace's saved sessions and panes as records, apart from the
 * processes: finding them by id, name or `project/name`, keeping names
 * unique, and adding, renaming and removing records, so that the live
 * workspace deals only with what runs.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";
import { checkName, uniqueName } from "./names.ts";
import type { SavedPane, SavedSession, WorkspaceData } from "./workspace.ts";

/** The sessions and panes of a workspace, as saved. */
export class WorkspaceRecords {
  #index = new Map<string, SavedSession>();
  #indexed: SavedSession[] | undefined;
  #indexedLength = 0;
  /** The workspace data; the saver writes this object. */
  readonly data: WorkspaceData;
  #lastGeneration = 0;

  /** Wraps `data`, which stays the one object every change goes to. */
  constructor(data: WorkspaceData) {
    this.data = data;
  }

  /**
   * A generation later than every one given so far, so that each new
   * process of a pane is told apart from the one before it.
   */
  nextGeneration(): number {
    this.#lastGeneration = Math.max(Date.now(), this.#lastGeneration + 1);
    return this.#lastGeneration;
  }

  /** The last generation given. */
  get lastGeneration(): number {
    return this.#lastGeneration;
  }

  /** Keeps generations later than `last`, given by a skiffd before this one. */
  recallGeneration(last: number): void {
    this.#lastGeneration = Math.max(this.#lastGeneration, last);
  }

  /** The pane named `name`, if any. */
  paneNamed(name: string): SavedPane | undefined {
    return this.data.panes.find((p) => p.name === name);
  }

  /** The session named `name`, if any. */
  sessionNamed(name: string): SavedSession | undefined {
    return this.data.sessions.find((s) => s.name === name);
  }

  /**
   * The session with id `id`, if any. A listing asks this for every pane: a
   * thousand panes in a thousand sessions made a search through the list a
   * million comparisons, so the sessions are indexed by id. The index is made
   * again when the list is another or its length changed (sessions are only
   * ever added to it, or the list replaced).
   */
  session(id: string): SavedSession | undefined {
    const sessions = this.data.sessions;
    if (this.#indexed !== sessions || this.#indexedLength !== sessions.length) {
      this.#index = new Map(sessions.map((s) => [s.id, s]));
      this.#indexed = sessions;
      this.#indexedLength = sessions.length;
    }
    return this.#index.get(id);
  }

  /** Finds a pane by id (`p3`), name, or `project/name`. */
  findPane(ref: string): SavedPane | undefined {
    if (/^p\d+$/.test(ref)) return this.data.panes.find((p) => p.id === ref);
    if (ref.includes("/")) {
      const [project, name] = ref.split("/", 2);
      return this.data.panes.find((p) => p.name === name && p.project === project);
    }
    return this.paneNamed(ref);
  }

  /** Finds a session by id, name, or by one of its panes; `undefined` if none. */
  findSession(ref: string): SavedSession | undefined {
    const direct = this.data.sessions.find((s) => s.id === ref || s.name === ref);
    if (direct) return direct;
    const pane = this.data.panes.find((p) => p.id === ref || p.name === ref);
    return pane && this.session(pane.session);
  }

  /** Like {@linkcode WorkspaceRecords.findSession}, but throws NOT_FOUND. */
  resolveSession(ref: string): SavedSession {
    const session = this.findSession(ref);
    if (!session) {
      throw new SkiffError(`No session '${ref}'. See 'skiff ls'`, { exit: "NOT_FOUND" });
    }
    return session;
  }

  /** A pane name made from `base` that no pane has: `base`, else `base-2`, `base-3`, … */
  uniquePaneName(base: string): string {
    return uniqueName(base, (n) => !!this.paneNamed(n));
  }

  /** A session name made from `base` that no session has. */
  uniqueSessionName(base: string): string {
    return uniqueName(base, (n) => !!this.sessionNamed(n));
  }

  /**
   * A new session record with the next session id; it joins the workspace
   * with its first pane (see {@linkcode WorkspaceRecords.add}).
   */
  newSession(fields: Pick<SavedSession, "name" | "project" | "marks">): SavedSession {
    return {
      id: `s${this.data.next_session++}`,
      ...fields,
      created: new Date().toISOString(),
    };
  }

  /** The id the next pane gets. */
  get nextPaneId(): string {
    return `p${this.data.next_pane}`;
  }

  /** Adds pane `saved`, and its session when that is new; the pane's id is used up. */
  add(saved: SavedPane, session: SavedSession): void {
    this.data.next_pane++;
    if (!this.data.sessions.includes(session)) this.data.sessions.push(session);
    this.data.panes.push(saved);
  }

  /** Renames pane `saved`; throws CONFLICT when another pane has the name. Returns the old name. */
  rename(saved: SavedPane, name: string): string {
    checkName(name, "pane");
    const other = this.paneNamed(name);
    if (other && other.id !== saved.id) {
      throw new SkiffError(`A pane named '${name}' exists already`, { exit: "CONFLICT" });
    }
    const old = saved.name;
    saved.name = name;
    // A pane alone in a session named after it takes the session's name with it,
    // so `ls` does not show the old name; a session named on purpose keeps its name.
    const session = this.session(saved.session);
    const alone = !this.data.panes.some((p) => p.session === saved.session && p.id !== saved.id);
    if (session && alone && session.name === old && !this.sessionNamed(name)) {
      session.name = name;
    }
    return old;
  }

  /**
   * Removes pane `id`, and its session when no pane is left in it. Returns
   * the session removed with it, if any.
   */
  remove(id: string, sessionId: string): SavedSession | undefined {
    const index = this.data.panes.findIndex((p) => p.id === id);
    if (index !== -1) this.data.panes.splice(index, 1);
    if (this.data.panes.some((p) => p.session === sessionId)) return undefined;
    const removed = this.session(sessionId);
    this.data.sessions = this.data.sessions.filter((s) => s.id !== sessionId);
    return removed;
  }
}
