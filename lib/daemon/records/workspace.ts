/**
 * The saved workspace: sessions, panes, marks and id counters. skiffd saves it
 * after every change, atomically, and restores it after a restart.
 *
 * @module
 */

import { basename, dirname, join } from "../../platform/path.ts";
import { ensureDir, writeFileAtomic } from "../../platform/files.ts";
import { type PaneConversation, UNREAD_REASONS, type UnreadReason } from "../../protocol/panes.ts";

/** A session as saved. */
export interface SavedSession {
  /** `s<number>`, never reused. */
  id: string;
  /** Unique name. */
  name: string;
  /** The project, if any. */
  project?: string;
  /** Key → value marks, such as the Skiff agent's mark. */
  marks: Record<string, string>;
  /** When it was made (ISO 8601). */
  created: string;
}

/** How a pane's process ended, kept so that the pane stays exited through restarts. */
export interface SavedExit {
  /** The exit code (0 when a signal ended it). */
  code: number;
  /** The signal that ended it, or 0. */
  signal: number;
  /** When it ended (ISO 8601). */
  at: string;
}

/** A pane as saved. */
export interface SavedPane {
  /** `p<number>`, never reused. */
  id: string;
  /** Unique name. */
  name: string;
  /** Its session's id. */
  session: string;
  /** Its project, if any. */
  project?: string;
  /** Its working folder, as last seen. */
  cwd: string;
  /** The command it was started with. */
  command: string[];
  /** Environment variables given at `skiff new`. */
  env: Record<string, string>;
  /** The variables of the command that started it, for `CLIENT_ENV` (absent: skiffd's own). */
  client_env?: Record<string, string>;
  /** Columns. */
  cols: number;
  /** Rows. */
  rows: number;
  /** When it was made (ISO 8601). */
  created: string;
  /** The start time of its current process (ms since the epoch). */
  generation: number;
  /** Whether something happened in it that nobody has marked seen. */
  unread?: boolean;
  /** Why it is unread, oldest first. */
  unread_reasons?: UnreadReason[];
  /**
   * Set once its process exited on its own: the pane stays listed as exited,
   * with its last screen, until it is killed (a restore starts nothing in it).
   */
  exited?: SavedExit;
  /** When a person last attached to it or typed into it (ms since the epoch). */
  used_at?: number;
  /** The id of the git worktree Skiff made for it (`lib/worktree` knows the rest). */
  worktree?: string;
  /** Its agent's conversation, as the agent's hooks named it: kept for a resume after a restore. */
  conversation?: PaneConversation;
  /** Set by `skiff new --no-resume`: a restore never resumes its agent. */
  no_resume?: boolean;
  /**
   * The agent `skiff new --agent` started in it, with the arguments given
   * after Skiff's, and whether Skiff's hooks are wired into it (they are
   * into its resume too).
   */
  agent_launch?: { agent: string; args: string[]; hooks?: boolean };
}

/** The whole saved workspace. */
export interface WorkspaceData {
  /** The file format's version. */
  version: 1;
  /** The number of the next pane id. */
  next_pane: number;
  /** The number of the next session id. */
  next_session: number;
  /** Sessions, in creation order. */
  sessions: SavedSession[];
  /** Panes, in creation order. */
  panes: SavedPane[];
}

/** Returns an empty workspace. */
export function emptyWorkspace(): WorkspaceData {
  return { version: 1, next_pane: 1, next_session: 1, sessions: [], panes: [] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function validPane(value: unknown): value is SavedPane {
  return isRecord(value) && typeof value.id === "string" && typeof value.name === "string" &&
    typeof value.session === "string" && typeof value.cwd === "string" &&
    Array.isArray(value.command) && value.command.every((w) => typeof w === "string") &&
    isRecord(value.env) && Object.values(value.env).every((v) => typeof v === "string") &&
    typeof value.cols === "number" && typeof value.rows === "number" &&
    typeof value.generation === "number";
}

function validExit(value: unknown): value is SavedExit {
  return isRecord(value) && Number.isInteger(value.code) && Number.isInteger(value.signal) &&
    typeof value.at === "string" && !Number.isNaN(Date.parse(value.at));
}

function validConversation(value: unknown): value is PaneConversation {
  return isRecord(value) && typeof value.agent === "string" && typeof value.id === "string" &&
    typeof value.cwd === "string" && (value.record === null || typeof value.record === "string") &&
    typeof value.live === "boolean" && typeof value.learned === "string" &&
    typeof value.source === "string";
}

function validLaunch(value: unknown): value is SavedPane["agent_launch"] {
  return isRecord(value) && typeof value.agent === "string" && Array.isArray(value.args) &&
    value.args.every((a) => typeof a === "string") &&
    (value.hooks === undefined || typeof value.hooks === "boolean");
}

/** Optional fields and how to tell a good value: a bad one is dropped, keeping the pane. */
const OPTIONALS: [keyof SavedPane, (value: unknown) => boolean][] = [
  ["exited", validExit],
  ["conversation", validConversation],
  ["no_resume", (v) => typeof v === "boolean"],
  ["agent_launch", validLaunch],
];

/** Drops optional fields that do not read as what they should be, keeping the pane. */
function withValidOptionals(pane: SavedPane): SavedPane {
  const bad = OPTIONALS.filter(([key, valid]) => pane[key] !== undefined && !valid(pane[key]));
  if (bad.length === 0) return pane;
  const copy: Record<string, unknown> = { ...pane };
  for (const [key] of bad) delete copy[key];
  return copy as unknown as SavedPane;
}

/** Keeps the unread reasons this Skiff knows; an unread pane from an older file gets none. */
function withKnownReasons(pane: SavedPane): SavedPane {
  if (pane.unread_reasons === undefined) return pane;
  const reasons = Array.isArray(pane.unread_reasons) ? pane.unread_reasons : [];
  return { ...pane, unread_reasons: reasons.filter((r) => UNREAD_REASONS.includes(r)) };
}

function validSession(value: unknown): value is SavedSession {
  return isRecord(value) && typeof value.id === "string" && typeof value.name === "string" &&
    isRecord(value.marks);
}

/** The result of {@linkcode loadWorkspace}. */
export interface LoadedWorkspace {
  /** The workspace (empty when there was none or it was unreadable). */
  data: WorkspaceData;
  /** Where an unreadable file was moved, so nothing is lost. */
  setAside?: string;
}

/**
 * Checks a workspace read from JSON (a file, or a handoff after an
 * upgrade): sessions and panes that are not whole are left out. Throws when
 * it is not a workspace at all.
 */
export function parseWorkspace(raw: unknown): WorkspaceData {
  if (
    !isRecord(raw) || raw.version !== 1 || !Array.isArray(raw.panes) ||
    !Array.isArray(raw.sessions) || typeof raw.next_pane !== "number" ||
    typeof raw.next_session !== "number"
  ) {
    throw new Error("not a Skiff workspace");
  }
  return {
    version: 1,
    next_pane: raw.next_pane,
    next_session: raw.next_session,
    sessions: raw.sessions.filter(validSession),
    panes: raw.panes.filter(validPane).map(withKnownReasons).map(withValidOptionals),
  };
}

/**
 * Removes the temporary files of saves that a crash (a kill -9) cut off.
 * Only the skiffd that holds this workspace's lock calls this, so none of
 * them is being written.
 */
function removeCutOffSaves(path: string): void {
  const prefix = `${basename(path)}.tmp-`;
  try {
    for (const entry of Deno.readDirSync(dirname(path))) {
      if (entry.isFile && entry.name.startsWith(prefix)) {
        Deno.removeSync(join(dirname(path), entry.name));
      }
    }
  } catch {
    // No folder yet, or nothing we may remove: the files only take space.
  }
}

/**
 * Reads the workspace file. A missing file gives an empty workspace. An
 * unreadable one is renamed aside (never deleted) and an empty workspace is
 * returned. Temporary files of cut-off saves beside it are removed.
 */
export function loadWorkspace(path: string): LoadedWorkspace {
  removeCutOffSaves(path);
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { data: emptyWorkspace() };
    throw error;
  }
  try {
    return { data: parseWorkspace(JSON.parse(text)) };
  } catch {
    const aside = `${path}.unreadable-${Date.now()}`;
    Deno.renameSync(path, aside);
    return { data: emptyWorkspace(), setAside: aside };
  }
}

/**
 * The fault switch of saves: while the file that `SKIFF_FAULT_FULL_DISK`
 * names exists, every save (the workspace's, and each pane's screen) fails
 * as on a full disk, halfway through writing. It is read at each save, so a
 * test can make the disk full and free again under a running skiffd.
 */
export const FULL_DISK_SWITCH = "SKIFF_FAULT_FULL_DISK";

/** Whether the full-disk fault switch is on (see {@linkcode FULL_DISK_SWITCH}). */
export function diskFull(): boolean {
  const path = Deno.env.get(FULL_DISK_SWITCH);
  if (!path) return false;
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes the workspace atomically: a failed write (a full disk) throws and
 * leaves the old file whole.
 */
export function saveWorkspace(path: string, data: WorkspaceData): void {
  ensureDir(dirname(path), 0o700);
  const text = JSON.stringify(data, null, 1) + "\n";
  writeFileAtomic(path, text, {
    mode: 0o600,
    spaceLeft: diskFull() ? Math.floor(text.length / 2) : undefined,
  });
}
