/**
 * The worktree methods of the protocol: the git worktrees Skiff made for
 * panes (`skiff new --worktree`), listed, removed and pruned, and the
 * worktree of one pane for `skiff diff`.
 *
 * @module
 */

/** A pane's worktree, as `skiff ls --json` shows it: from its last count, never a git run. */
export interface PaneWorktree {
  /** The worktree's id (`w3`), as `skiff worktree ls --json` shows it. */
  id: string;
  /** The worktree's name, unique in its project. */
  name: string;
  /** The branch checked out in it (its current one, else the one it was made with). */
  branch: string;
  /** Its folder. */
  path: string;
  /** Commits on it that are not on the base, as last counted; null before a count. */
  ahead: number | null;
  /** Commits on the base that are not on it, as last counted; null before a count. */
  behind: number | null;
  /** Whether its commits are all on the base (see {@linkcode WorktreeInfo.merged}); null before a count. */
  merged: boolean | null;
  /** The last landing Skiff made of it (`skiff land`), or null. */
  landed: LandedInfo | null;
}

/** A landing Skiff made of a worktree (`skiff land`), as its record keeps it. */
export interface LandedInfo {
  /** When (ISO 8601). */
  at: string;
  /** The base branch it landed on. */
  into: string;
  /** The base's tip before. */
  from: string;
  /** The base's tip after: the landed commit. */
  to: string;
  /** `rebase`, `merge` or `squash`. */
  strategy: "rebase" | "merge" | "squash";
  /** How many commits landed. */
  commits: number;
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
  /** Commits on the base that are not on it; null when missing. */
  behind: number | null;
  /**
   * Whether its branch is on the base: it has commits since the worktree was
   * made (or Skiff landed it), and the base holds every one. Null when missing.
   */
  merged: boolean | null;
  /** The last landing Skiff made of it (`skiff land`), or null. */
  landed: LandedInfo | null;
  /** Where the project's root sits in the repository ("" at its top): its checks run there. */
  subdir: string;
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
  /**
   * End the running panes in it first, but still refuse when work would be
   * lost (what `skiff land --remove` asks: a landed worktree holds none).
   */
  end_panes?: boolean;
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
  /**
   * Commits on its branch that are on no other branch and not on the base:
   * the kept branch is all that holds them (0 when none, or the branch went).
   */
  unique_commits: number;
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

/** What `worktree.get` finds: a worktree, and the pane that holds it. */
export interface WorktreeTarget {
  /** The pane that holds it (the one asked for, or the one made with it), or null. */
  pane: {
    id: string;
    name: string;
    status: "running" | "exited";
    /** Its agent state (`idle`, `working`, `waiting`, `starting`, `shell`, `exited`). */
    state: string;
  } | null;
  /** The worktree, as last counted (no git runs). */
  worktree: WorktreeInfo;
}

/** The params of `worktree.get`. */
export interface GetWorktreeParams {
  /** A pane (id, name, `project/name`), or a worktree (`NAME`, `PROJECT/NAME`). */
  ref: string;
  /**
   * What `ref` names: a pane, a worktree, or either (default: a pane first,
   * then a worktree, so `skiff diff fix-a` finds the worktree once its pane is gone).
   */
  as?: "pane" | "worktree" | "either";
}

/** A `skiff/*` branch whose worktree is gone (`skiff worktree ls --branches`). */
export interface LeftBranch {
  /** The project whose repository holds it (the first, when several share one). */
  project: string;
  /** The repository's main checkout. */
  repo: string;
  /** The branch, such as `skiff/login`. */
  branch: string;
  /** Its tip. */
  commit: string;
  /** The subject of its tip. */
  subject: string;
  /** When its tip was committed (ISO 8601). */
  committed: string;
  /** The base it is compared with: the branch the main checkout has checked out (or HEAD). */
  base: string;
  /** Commits on it that are not on the base. */
  ahead: number;
  /** Commits on the base that are not on it. */
  behind: number;
  /** Whether the base holds its tip, so deleting it loses nothing. */
  merged: boolean;
}

/** The worktree methods: name → params and result. */
export interface WorktreeMethods {
  /** Lists the worktrees Skiff made, with their git state. */
  "worktree.list": { params: { project?: string }; result: { worktrees: WorktreeInfo[] } };
  /** Removes a worktree Skiff made, refusing what would lose work unless forced. */
  "worktree.remove": { params: RemoveWorktreeParams; result: RemovedWorktree };
  /** Drops the records of worktrees whose folder or repository is gone. */
  "worktree.prune": {
    params: { dry_run?: boolean; branches?: boolean };
    result: {
      pruned: WorktreeInfo[];
      dry_run: boolean;
      /** With `branches`: the merged `skiff/*` branches whose worktree is gone, deleted (or not, in a dry run). */
      branches_deleted?: LeftBranch[];
    };
  };
  /** Finds a worktree by a pane or by its name, as last counted (no git runs). */
  "worktree.get": { params: GetWorktreeParams; result: WorktreeTarget };
  /** Notes a landing Skiff made of worktree `worktree` (an id), and counts it again. */
  "worktree.landed": {
    params: { worktree: string; landed: LandedInfo };
    result: { worktree: WorktreeInfo };
  };
  /** The `skiff/*` branches of the projects' repositories whose worktree is gone. */
  "worktree.branches": { params: { project?: string }; result: { branches: LeftBranch[] } };
  /**
   * The worktree of a pane, as last counted (no git runs), and asks for a
   * fresh count for `skiff ls`.
   */
  "pane.worktree": { params: { pane: string }; result: PaneWorktreeResult };
}
