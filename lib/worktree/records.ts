/**
 * The records of the worktrees Skiff made: one JSON file in the state folder
 * (`skiffd.worktrees.json` beside the workspace), written only by skiffd,
 * each time whole through a temporary file and a rename, so a crash leaves
 * the old file or the new one. A record is written before its worktree is
 * made, so no worktree Skiff made is ever without one; a record whose
 * worktree is gone shows as missing until `skiff worktree prune`.
 *
 * ```json
 * { "version": 1, "next_id": 3, "worktrees": [
 *   { "id": "w1", "project": "api", "name": "login", "branch": "skiff/login",
 *     "branch_created": true, "base": "main", "base_commit": "3f2a…",
 *     "repo": "/home/me/code/api", "subdir": "", "path": "…/worktrees/api/login",
 *     "pane": "p4", "created": "2026-11-29T10:00:00.000Z" } ] }
 * ```
 *
 * @module
 */

import { basename, dirname, join } from "../platform/path.ts";
import { ensureDir, writeFileAtomic } from "../platform/files.ts";
import { SkiffError } from "../errors.ts";
import type { LandedInfo } from "../protocol/worktrees.ts";

/** A worktree Skiff made. */
export interface WorktreeRecord {
  /** `w<number>`, never reused. */
  id: string;
  /** The project it was made for. */
  project: string;
  /** Its name, unique in the project. */
  name: string;
  /** The branch it was made with. */
  branch: string;
  /** Whether Skiff made the branch (false: it checked out an existing one). */
  branch_created: boolean;
  /** The base as named: a branch name, or a commit when HEAD was detached. */
  base: string;
  /** The commit the base named when it was made. */
  base_commit: string;
  /** The repository's top folder (its main worktree) when it was made. */
  repo: string;
  /** Where the project's root sits in the repository ("" at its top). */
  subdir: string;
  /** The worktree's folder. */
  path: string;
  /** The pane made with it, or null. */
  pane: string | null;
  /** When it was made (ISO 8601). */
  created: string;
  /** The last landing Skiff made of it (`skiff land`), or null (absent in older records). */
  landed?: LandedInfo | null;
}

/** What reading a worktree's changes needs of its record. */
export type WorktreePlace = Pick<WorktreeRecord, "name" | "path" | "base" | "base_commit">;

/** The fields of a new record; the store gives the id. */
export type NewRecord = Omit<WorktreeRecord, "id">;

interface RecordsFile {
  version: 1;
  next_id: number;
  worktrees: WorktreeRecord[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function validRecord(value: unknown): value is WorktreeRecord {
  if (!isRecord(value)) return false;
  const strings = ["id", "project", "name", "branch", "base", "base_commit", "repo", "path"];
  return strings.every((k) => typeof value[k] === "string") &&
    (value.pane === null || value.pane === undefined || typeof value.pane === "string");
}

function validLanded(value: unknown): value is LandedInfo {
  if (!isRecord(value)) return false;
  return ["at", "into", "from", "to", "strategy"].every((k) => typeof value[k] === "string") &&
    typeof value.commits === "number";
}

function normalised(value: WorktreeRecord): WorktreeRecord {
  return {
    ...value,
    branch_created: value.branch_created === true,
    subdir: typeof value.subdir === "string" ? value.subdir : "",
    pane: value.pane ?? null,
    landed: validLanded(value.landed) ? value.landed : null,
    created: typeof value.created === "string" ? value.created : new Date(0).toISOString(),
  };
}

/** Options for {@linkcode WorktreeStore}. */
export interface StoreOptions {
  /** Writes a line to skiffd's log. */
  log?: (line: string) => void;
}

/** The records, kept in memory and saved whole after each change. */
export class WorktreeStore {
  /** The file. */
  readonly file: string;
  #data: RecordsFile;

  /**
   * Reads the file. A missing file is no records; an unreadable one is
   * renamed aside (never deleted) and logged, and the store starts empty.
   */
  constructor(file: string, options: StoreOptions = {}) {
    this.file = file;
    this.#data = load(file, options.log ?? (() => {}));
  }

  /** Every record, oldest first. */
  get all(): readonly WorktreeRecord[] {
    return this.#data.worktrees;
  }

  /** The record with `id`, if any. */
  get(id: string | undefined): WorktreeRecord | undefined {
    return id === undefined ? undefined : this.#data.worktrees.find((r) => r.id === id);
  }

  /** The record of `name` in `project`, if any. */
  named(project: string, name: string): WorktreeRecord | undefined {
    return this.#data.worktrees.find((r) => r.project === project && r.name === name);
  }

  /**
   * Finds a record by `NAME` or `PROJECT/NAME`. Throws NOT_FOUND, or USAGE
   * when a bare name is in several projects (the error lists them).
   */
  find(ref: string): WorktreeRecord {
    const slash = ref.indexOf("/");
    const hits = slash === -1
      ? this.#data.worktrees.filter((r) => r.name === ref || r.id === ref)
      : this.#data.worktrees.filter((r) =>
        r.project === ref.slice(0, slash) && r.name === ref.slice(slash + 1)
      );
    if (hits.length === 1) return hits[0];
    if (hits.length === 0) {
      throw new SkiffError(`No worktree '${ref}'. See 'skiff worktree ls'`, {
        exit: "NOT_FOUND",
        details: { worktree: ref },
      });
    }
    const candidates = hits.map((r) => `${r.project}/${r.name}`);
    throw new SkiffError(
      `Worktree '${ref}' is in several projects: name one of ${candidates.join(", ")}`,
      { exit: "USAGE", details: { candidates } },
    );
  }

  /** Adds a record and saves; a failed save adds nothing and throws (exit `DATA`). */
  add(fields: NewRecord): WorktreeRecord {
    const record: WorktreeRecord = { id: `w${this.#data.next_id}`, ...fields };
    this.#change(() => {
      this.#data.next_id++;
      this.#data.worktrees.push(record);
    });
    return record;
  }

  /** Sets the pane a record was made for, and saves (a failed save changes nothing and throws). */
  setPane(id: string, pane: string): void {
    this.#change(() => {
      const record = this.#data.worktrees.find((r) => r.id === id);
      if (record) record.pane = pane;
    });
  }

  /** Notes a landing of record `id`, and saves (a failed save changes nothing and throws). */
  setLanded(id: string, landed: LandedInfo): void {
    this.#change(() => {
      const record = this.#data.worktrees.find((r) => r.id === id);
      if (record) record.landed = { ...landed };
    });
  }

  /** Removes a record and saves; a failed save keeps it and throws (exit `DATA`). */
  remove(id: string): void {
    this.#change(() => {
      this.#data.worktrees = this.#data.worktrees.filter((r) => r.id !== id);
    });
  }

  /** Applies `change` and saves; when the save fails the change is undone and the error thrown. */
  #change(change: () => void): void {
    const before = structuredClone(this.#data);
    change();
    try {
      save(this.file, this.#data);
    } catch (error) {
      this.#data = before;
      throw new SkiffError(
        `Cannot save the worktree records ${this.file}: ${(error as Error).message}`,
        { exit: "DATA", cause: error },
      );
    }
  }
}

function empty(): RecordsFile {
  return { version: 1, next_id: 1, worktrees: [] };
}

function load(file: string, log: (line: string) => void): RecordsFile {
  removeCutOffSaves(file);
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return empty();
    throw new SkiffError(`Cannot read the worktree records ${file}: ${(error as Error).message}`, {
      exit: "DATA",
      cause: error,
    });
  }
  try {
    const raw = JSON.parse(text);
    if (!isRecord(raw) || raw.version !== 1 || !Array.isArray(raw.worktrees)) {
      throw new Error("not Skiff's worktree records");
    }
    const worktrees = raw.worktrees.filter(validRecord).map(normalised);
    const highest = worktrees.reduce((n, r) => Math.max(n, Number(r.id.slice(1)) || 0), 0);
    const next = typeof raw.next_id === "number" ? raw.next_id : 1;
    return { version: 1, next_id: Math.max(next, highest + 1), worktrees };
  } catch {
    const aside = `${file}.unreadable-${Date.now()}`;
    Deno.renameSync(file, aside);
    log(`worktree records were unreadable; kept them as ${aside}`);
    return empty();
  }
}

function save(file: string, data: RecordsFile): void {
  ensureDir(dirname(file), 0o700);
  writeFileAtomic(file, JSON.stringify(data, null, 1) + "\n", { mode: 0o600 });
}

/** Removes the temporary files of saves a crash cut off (only skiffd, holding its lock, calls this). */
function removeCutOffSaves(file: string): void {
  const prefix = `${basename(file)}.tmp-`;
  try {
    for (const entry of Deno.readDirSync(dirname(file))) {
      if (entry.isFile && entry.name.startsWith(prefix)) {
        Deno.removeSync(join(dirname(file), entry.name));
      }
    }
  } catch {
    // No folder yet.
  }
}
