/**
 * The worktree methods of the protocol: the git worktrees Skiff made for
 * panes (`skiff new --worktree`), listed, removed and pruned, and the
 * worktree of one pane for `skiff diff`.
 *
 * @module
 */

/** A pane's worktree, as `skiff ls --json` shows it. */
export interface PaneWorktree {
  /** The worktree's name, unique in its project. */
  name: string;
  /** The branch checked out in it (its current one, else the one it was made with). */
  branch: string;
  /** Its folder. */
  path: string;
}

/** How far a worktree is from its base: committed, uncommitted and untracked changes. */
export interface DiffStat {
  /** Files that differ. */
  files: number;
  /** Lines added. */
  added: number;
  /** Lines removed. */
  removed: number;
}

/** What `new --worktree` asks for. */
export interface NewWorktreeParams {
  /** The worktree's name: letters, digits, `.`, `_` and `-`. */
  name: string;
  /** The branch: a new one (default `skiff/NAME`), or an existing one no worktree holds. */
  branch?: string;
  /** Where a new branch starts (default: the project's current HEAD). */
  base?: string;
}

/** One worktree Skiff made, with what git says about it now. */
export interface WorktreeInfo {
  /** Never-reused id, such as `w3`. */
  id: string;
  /** The project it belongs to. */
  project: string;
  /** Its name, unique in the project. */
  name: string;
  /** The branch checked out in it now (or the one it was made with, when it is missing). */
  branch: string;
  /** The branch it was made with. */
  made_branch: string;
  /** Whether Skiff made the branch (false: an existing branch was checked out). */
  branch_created: boolean;
  /** The base as named: a branch name or a commit. */
  base: string;
  /** The commit the base named when the worktree was made. */
  base_commit: string;
  /** Its folder. */
  path: string;
  /** The repository's own folder (its main worktree) when it was made. */
  repo: string;
  /** The pane that runs in it: the one made with it, while it exists; else null. */
  pane: { id: string; name: string; status: "running" | "exited" } | null;
  /** `ok`, or `missing` when its folder or its repository is gone. */
  state: "ok" | "missing";
  /** Why it is missing, in one line; null when it is not. */
  missing: string | null;
  /** Whether it holds uncommitted changes or untracked files; null when missing. */
  dirty: boolean | null;
  /** Commits on it that are not on the base; null when missing. */
  ahead: number | null;
  /** Its changes against the base (committed, uncommitted and untracked); null when missing. */
  diff: DiffStat | null;
  /** When it was made (ISO 8601). */
  created: string;
}

/** The params of `worktree.remove`. */
export interface RemoveWorktreeParams {
  /** `NAME` or `PROJECT/NAME`. */
  worktree: string;
  /** Remove it even when work would be lost, ending its pane first. */
  force?: boolean;
  /** Delete its branch too. */
  delete_branch?: boolean;
}

/** What `worktree.remove` did. */
export interface RemovedWorktree {
  /** The worktree as it was. */
  worktree: WorktreeInfo;
  /** Whether its branch was deleted. */
  branch_deleted: boolean;
  /** The panes `--force` ended first (ids). */
  panes_killed: string[];
  /** What `--force` threw away, one line each (empty when nothing was). */
  discarded: string[];
  /** Files git ignores that went with the folder (a folder once, ending in `/`). */
  ignored: string[];
}

/** The worktree of one pane, for `skiff diff`. */
export interface PaneWorktreeResult {
  /** The pane's id. */
  pane: string;
  /** The pane's name. */
  name: string;
  /** Its worktree. */
  worktree: WorktreeInfo;
}

/** The worktree methods: name → params and result. */
export interface WorktreeMethods {
  /** Lists the worktrees Skiff made, with their git state. */
  "worktree.list": { params: { project?: string }; result: { worktrees: WorktreeInfo[] } };
  /** Removes a worktree Skiff made, refusing what would lose work unless forced. */
  "worktree.remove": { params: RemoveWorktreeParams; result: RemovedWorktree };
  /** Drops the records of worktrees whose folder or repository is gone. */
  "worktree.prune": {
    params: { dry_run?: boolean };
    result: { pruned: WorktreeInfo[]; dry_run: boolean };
  };
  /**
   * The worktree of a pane, as last counted (no git runs), and asks for a
   * fresh count for `skiff ls`.
   */
  "pane.worktree": { params: { pane: string }; result: PaneWorktreeResult };
}
