/**
 * Reading git's porcelain output, the forms git promises to keep stable for
 * scripts: `worktree list --porcelain -z`, `status --porcelain=v2 -z` and
 * `diff --numstat -z`. With `-z` every path arrives as it is, spaces,
 * newlines and quotes included.
 *
 * @module
 */

const decoder = new TextDecoder();

/** Splits `-z` output into its NUL-ended fields (a last field without a NUL counts too). */
function fields(bytes: Uint8Array | string): string[] {
  const text = typeof bytes === "string" ? bytes : decoder.decode(bytes);
  const parts = text.split("\0");
  if (parts.at(-1) === "") parts.pop();
  return parts;
}

/** One worktree of a repository, as `git worktree list --porcelain -z` lists it. */
export interface ListedWorktree {
  /** Its folder. */
  path: string;
  /** The commit checked out, or null in a bare repository. */
  head: string | null;
  /** The branch checked out (without `refs/heads/`), or null when detached or bare. */
  branch: string | null;
  /** Whether HEAD is detached. */
  detached: boolean;
  /** Whether it is the bare repository itself. */
  bare: boolean;
  /** Why it is locked (maybe empty), or null when it is not. */
  locked: string | null;
  /** Why git would prune it (its folder is gone), or null. */
  prunable: string | null;
}

/** Reads `git worktree list --porcelain -z`. */
export function parseWorktreeList(bytes: Uint8Array | string): ListedWorktree[] {
  const out: ListedWorktree[] = [];
  let current: ListedWorktree | null = null;
  for (const field of fields(bytes)) {
    if (field === "") {
      current = null;
      continue;
    }
    const space = field.indexOf(" ");
    const key = space === -1 ? field : field.slice(0, space);
    const value = space === -1 ? "" : field.slice(space + 1);
    if (key === "worktree") {
      current = {
        path: value,
        head: null,
        branch: null,
        detached: false,
        bare: false,
        locked: null,
        prunable: null,
      };
      out.push(current);
      continue;
    }
    if (!current) continue;
    if (key === "HEAD") current.head = value;
    else if (key === "branch") current.branch = value.replace(/^refs\/heads\//, "");
    else if (key === "detached") current.detached = true;
    else if (key === "bare") current.bare = true;
    else if (key === "locked") current.locked = value;
    else if (key === "prunable") current.prunable = value;
  }
  return out;
}

/** What `git status --porcelain=v2 -z --branch` says about a worktree. */
export interface StatusReport {
  /** The branch checked out, or null when HEAD is detached. */
  branch: string | null;
  /** The commit checked out, or null before the first commit. */
  head: string | null;
  /** Tracked files with changes, staged or not, conflicts included. */
  changed: string[];
  /** Untracked files (not ignored ones). */
  untracked: string[];
}

/** Reads `git status --porcelain=v2 -z --branch`. */
export function parseStatus(bytes: Uint8Array | string): StatusReport {
  const report: StatusReport = { branch: null, head: null, changed: [], untracked: [] };
  const parts = fields(bytes);
  for (let i = 0; i < parts.length; i++) {
    const field = parts[i];
    if (field.startsWith("# branch.oid ")) {
      const oid = field.slice("# branch.oid ".length);
      report.head = oid === "(initial)" ? null : oid;
    } else if (field.startsWith("# branch.head ")) {
      const head = field.slice("# branch.head ".length);
      report.branch = head === "(detached)" ? null : head;
    } else if (field.startsWith("1 ")) {
      report.changed.push(afterSpaces(field, 8));
    } else if (field.startsWith("2 ")) {
      report.changed.push(afterSpaces(field, 9));
      i++; // The path it came from follows in a field of its own.
    } else if (field.startsWith("u ")) {
      report.changed.push(afterSpaces(field, 10));
    } else if (field.startsWith("? ")) {
      report.untracked.push(field.slice(2));
    }
  }
  return report;
}

/** The rest of `line` after its first `count` spaces (a path may hold spaces). */
function afterSpaces(line: string, count: number): string {
  let at = 0;
  for (let n = 0; n < count; n++) {
    at = line.indexOf(" ", at) + 1;
    if (at === 0) return "";
  }
  return line.slice(at);
}

/** One file of `git diff --numstat -z`. */
export interface NumstatEntry {
  /** The file's path (its new path after a rename). */
  path: string;
  /** Its old path when git saw a rename, else null. */
  from: string | null;
  /** Lines added, or null for a binary file. */
  added: number | null;
  /** Lines removed, or null for a binary file. */
  removed: number | null;
}

/** Reads `git diff --numstat -z`. */
export function parseNumstat(bytes: Uint8Array | string): NumstatEntry[] {
  const out: NumstatEntry[] = [];
  const parts = fields(bytes);
  for (let i = 0; i < parts.length; i++) {
    const field = parts[i];
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(field);
    if (!match) continue;
    const count = (v: string) => v === "-" ? null : Number(v);
    let path = match[3];
    let from: string | null = null;
    if (path === "") {
      // A rename: the old and the new path follow, each in a field of its own.
      from = parts[i + 1] ?? "";
      path = parts[i + 2] ?? "";
      i += 2;
    }
    out.push({ path, from, added: count(match[1]), removed: count(match[2]) });
  }
  return out;
}
