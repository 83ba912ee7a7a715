/**
 * Builds the description of a pane that `skiff ls`, `pane.get` and `attach`
 * return (its shape is {@linkcode PaneInfo} in the protocol), and the one a
 * listing of the whole workspace returns ({@linkcode ListedPane}).
 *
 * @module
 */

import type { AgentTracker } from "../../agents/tracker.ts";
import type { PaneInfo } from "../../protocol/panes.ts";
import type { ListedPane } from "../../protocol/workspace.ts";
import type { DiffStat, PaneWorktree } from "../../protocol/worktrees.ts";
import type { Pane } from "./pane.ts";
import type { SavedSession } from "../records/mod.ts";

/** What a pane's worktree shows in its description. */
export interface PaneWorktreeView {
  /** The worktree. */
  worktree: PaneWorktree;
  /** Its last counted changes, or null. */
  diff: DiffStat | null;
}

/** What a pane's description is made of besides the pane. */
export interface PaneFacts {
  /** The pane's session. */
  session?: SavedSession;
  /** The agent tracker watching the pane. */
  tracker?: AgentTracker;
  /** The pane's worktree, when it has one. */
  worktree?: PaneWorktreeView | null;
}

/** Builds the full description of `pane` from its `listed` one: the process in front added. */
export function paneInfo(pane: Pane, listed: ListedPane): PaneInfo {
  return { ...listed, foreground: listed.pid === null ? null : pane.foreground() ?? null };
}

/** Builds the description of `pane` that a listing of the whole workspace holds. */
export function listedPane(pane: Pane, facts: PaneFacts = {}): ListedPane {
  const { session, tracker, worktree } = facts;
  const running = pane.status === "running";
  return {
    id: pane.id,
    name: pane.name,
    project: pane.saved.project ?? null,
    session: pane.saved.session,
    session_name: session?.name ?? pane.saved.session,
    pid: running ? pane.pid : null,
    generation: pane.saved.generation,
    command: pane.saved.command,
    cwd: pane.saved.cwd,
    cols: pane.saved.cols,
    rows: pane.saved.rows,
    title: pane.screen.title,
    status: pane.status,
    agent: tracker?.agent?.id ?? null,
    state: pane.status === "exited" ? "exited" : tracker?.state ?? "shell",
    state_since: new Date(pane.stateSince).toISOString(),
    unread: pane.saved.unread ?? false,
    unread_reasons: pane.saved.unread ? pane.saved.unread_reasons ?? [] : [],
    person_inputs: pane.personInputs,
    session_marks: { ...(session?.marks ?? {}) },
    // An adopted process that ended in the instant of an upgrade's exec: its code is not known.
    exit_code: pane.exit && !pane.exit.unknown ? pane.exit.exitCode : null,
    exit_signal: pane.exit?.signal ? pane.exit.signal : null,
    attached: pane.attached,
    created: pane.saved.created,
    used: pane.saved.used_at ? new Date(pane.saved.used_at).toISOString() : null,
    resumed: pane.resume && pane.resume.state !== "skipped" && pane.resume.state !== "failed"
      ? pane.resume.agent
      : null,
    conversation: pane.saved.conversation ? { ...pane.saved.conversation } : null,
    resume: pane.resume ? { ...pane.resume } : null,
    no_resume: pane.saved.no_resume ?? false,
    worktree: worktree?.worktree ?? null,
    diff: worktree?.diff ?? null,
  };
}
