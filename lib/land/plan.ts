/**
 * Planning a landing: what lands, worked out with plumbing only, before any
 * ref, index or file changes. `--commit` makes a commit of the worktree's
 * uncommitted work through an index of its own; the rebase, merge or squash
 * is made of trees merged without a checkout (`merge-tree`), so a conflict
 * is found here and leaves nothing behind: no `rebase-merge` folder, no
 * half-applied commit, no file touched.
 *
 * A rebase replays each commit of the branch (oldest first, merges left
 * out, as `git rebase` does): its tree is the base merged with that commit,
 * which is the base plus the branch's changes up to it. A commit whose
 * change the base holds already is dropped, as `git rebase` drops it; one
 * that was empty to begin with is kept. Each keeps its author, its date and
 * its message; the committer is whoever lands it, now.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { pathExists } from "../platform/files.ts";
import type { LandedCommit, LandStrategy } from "../protocol/land.ts";
import { gitComplaint, runGit } from "../worktree/mod.ts";
import type { CheckoutState } from "./checkout.ts";
import {
  commitsToLand,
  identities,
  mergeTrees,
  type NewCommit,
  type RawCommit,
  readCommits,
  treeOf,
  writeCommits,
} from "./objects.ts";
import { refusal, someFiles } from "./refuse.ts";
import { commitMessage, mergeMessage, squashMessage, type WordsInput } from "./words.ts";

const decoder = new TextDecoder();

/** What a plan needs to know. */
export interface PlanInput {
  /** The worktree as read now. */
  state: CheckoutState;
  /** `PROJECT/NAME`, for messages. */
  label: string;
  /** The base branch and its tip now. */
  base: { name: string; tip: string };
  /** The strategy. */
  strategy: LandStrategy;
  /** What the messages say. */
  words: WordsInput;
  /** With `--commit`: the message to use (else one is made of the words). */
  commitMessage?: string;
  /** Whether to commit the uncommitted work (`--commit`). */
  commit: boolean;
  /** A folder for scratch files (the index `--commit` builds). */
  scratch: string;
}

/** The commit `--commit` made of the uncommitted work. */
export interface WorkCommit {
  /** Its id. */
  commit: string;
  /** Its message. */
  message: string;
  /** The files it changed. */
  files: string[];
  /** The index it was built in, which takes the worktree's place when the landing goes ahead. */
  index: string;
}

/** What would land, and how. */
export interface Plan {
  /** The worktree's HEAD when the landing started. */
  head: string;
  /** `--commit`'s commit, or null. */
  work: WorkCommit | null;
  /** The tip that lands: `work`'s commit, or `head`. */
  tip: string;
  /** True when the base holds everything already: nothing lands. */
  upToDate: boolean;
  /** The commits to write, in order (none for a fast-forward). */
  toWrite: NewCommit[];
  /** The commits that land, oldest first; `commit` is null for those still to write. */
  commits: LandedCommit[];
  /** The tree of what lands. */
  tree: string;
  /** The subjects of the branch's commits, for a pull request. */
  subjects: string[];
}

/** Commits the worktree's uncommitted work in an index of its own: no file or index of it changes. */
async function commitWork(input: PlanInput, head: string): Promise<WorkCommit> {
  const { state } = input;
  const index = `${input.scratch}/${Deno.pid}-commit.index`;
  if (pathExists(state.index)) Deno.copyFileSync(state.index, index);
  const git = { cwd: state.top, env: { GIT_INDEX_FILE: index }, timeoutMs: 600_000 };
  const added = await runGit(["add", "-A", "--", "."], git);
  if (added.code !== 0) {
    throw new SkiffError(`git add failed in ${state.top}: ${gitComplaint(added)}`, {
      exit: "ERROR",
    });
  }
  const written = await runGit(["write-tree"], git);
  if (written.code !== 0) {
    throw new SkiffError(`git write-tree failed: ${gitComplaint(written)}`, { exit: "ERROR" });
  }
  const tree = decoder.decode(written.stdout).trim();
  const names = await runGit(["diff", "--name-only", "-z", "--no-renames", head, tree], git);
  const files = decoder.decode(names.stdout).split("\0").filter((f) => f !== "");
  const message = input.commitMessage ?? commitMessage(input.words);
  const who = await identities(state.top);
  const [commit] = await writeCommits(state.top, input.scratch, [
    { tree, parents: [head], author: who.author, committer: who.committer, message },
  ]);
  return { commit, message, files, index };
}

async function isAncestor(cwd: string, older: string, newer: string): Promise<boolean> {
  const result = await runGit(["merge-base", "--is-ancestor", older, newer], { cwd, read: true });
  return result.code === 0;
}

async function mergeBase(cwd: string, a: string, b: string): Promise<string | null> {
  const result = await runGit(["merge-base", a, b], { cwd, read: true });
  return result.code === 0 ? decoder.decode(result.stdout).trim() : null;
}

function conflict(input: PlanInput, conflicts: string[], commit: RawCommit | null): SkiffError {
  const where = commit ? ` (at ${commit.id.slice(0, 12)} ${commit.subject})` : "";
  return refusal(
    "merge_conflict",
    `${input.words.branch} does not apply on ${input.base.name}${where}: ${
      someFiles(conflicts)
    } conflict; nothing was changed`,
    { worktree: input.label, conflicts, commit: commit?.id ?? null, to_pane: null },
  );
}

/** The rebase: each commit replayed on the base, or a fast-forward when the base is under it. */
async function planRebase(
  input: PlanInput,
  tip: string,
  originals: RawCommit[],
): Promise<Pick<Plan, "toWrite" | "commits" | "tree" | "upToDate">> {
  const cwd = input.state.top;
  const base = input.base.tip;
  const fork = await mergeBase(cwd, base, tip);
  if (fork === base) {
    return {
      toWrite: [],
      commits: originals.map((c) => ({ commit: c.id, original: c.id, subject: c.subject })),
      tree: await treeOf(cwd, tip),
      upToDate: false,
    };
  }
  const merges = await mergeTrees(cwd, originals.map((c) => [base, c.id] as const));
  const failed = merges.findIndex((m) => m.conflicts.length > 0);
  if (failed !== -1) throw conflict(input, merges[failed].conflicts, originals[failed]);
  // The trees of the commits the branch's first commits start from, to tell an empty one.
  const known = new Map(originals.map((c) => [c.id, c.tree]));
  const unknown = [...new Set(originals.flatMap((c) => c.parents.slice(0, 1)))]
    .filter((p) => !known.has(p));
  for (const parent of await readCommits(cwd, unknown)) known.set(parent.id, parent.tree);
  const { committer } = await identities(cwd);
  let previous = await treeOf(cwd, base);
  const toWrite: NewCommit[] = [];
  const commits: Plan["commits"] = [];
  for (const [k, original] of originals.entries()) {
    const tree = merges[k].tree;
    const wasEmpty = known.get(original.parents[0] ?? "") === original.tree;
    // Its change is on the base already: `git rebase` drops it too.
    if (tree === previous && !wasEmpty) continue;
    toWrite.push({
      tree,
      parents: [toWrite.length === 0 ? base : null],
      author: original.author,
      committer,
      extra: original.extra,
      message: original.message,
    });
    commits.push({ commit: null, original: original.id, subject: original.subject });
    previous = tree;
  }
  return { toWrite, commits, tree: previous, upToDate: toWrite.length === 0 };
}

/**
 * Works out what landing the worktree would do. Throws the `merge_conflict`
 * refusal when the branch does not apply on the base; nothing but objects
 * that nothing points at is written (and, with `--commit`, the scratch
 * index the caller removes).
 */
export async function planLanding(input: PlanInput): Promise<Plan> {
  const cwd = input.state.top;
  const head = input.state.head!;
  const dirty = input.state.changed.length + input.state.untracked.length > 0;
  const work = input.commit && dirty ? await commitWork(input, head) : null;
  const tip = work?.commit ?? head;
  const base = input.base.tip;
  const nothing: Plan = {
    head,
    work,
    tip,
    upToDate: true,
    toWrite: [],
    commits: [],
    tree: await treeOf(cwd, base),
    subjects: [],
  };
  if (await isAncestor(cwd, tip, base)) return nothing;
  const originals = await readCommits(cwd, await commitsToLand(cwd, base, tip));
  const subjects = originals.map((c) => c.subject);
  if (input.strategy === "rebase") {
    const rebased = await planRebase(input, tip, originals);
    return { head, work, tip, subjects, ...rebased };
  }
  const [merge] = await mergeTrees(cwd, [[base, tip]]);
  if (merge.conflicts.length > 0) throw conflict(input, merge.conflicts, null);
  const who = await identities(cwd);
  const kept = originals.map((c) => ({ commit: c.id, original: c.id, subject: c.subject }));
  if (input.strategy === "merge") {
    const message = mergeMessage(input.words, input.base.name);
    return {
      head,
      work,
      tip,
      upToDate: false,
      toWrite: [{ tree: merge.tree, parents: [base, tip], ...who, message }],
      commits: [...kept, { commit: null, original: null, subject: message.split("\n")[0] }],
      tree: merge.tree,
      subjects,
    };
  }
  const message = squashMessage(input.words, subjects);
  return {
    head,
    work,
    tip,
    upToDate: false,
    toWrite: [{ tree: merge.tree, parents: [base], ...who, message }],
    commits: [{ commit: null, original: null, subject: message.split("\n")[0] }],
    tree: merge.tree,
    subjects,
  };
}
