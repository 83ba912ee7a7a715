/**
 * `session.ensure`: find the session that carries a mark, or adopt a
 * matching unmarked one, or make it, in one request. skiffd answers these
 * one at a time, so two clients asking at once get the same session.
 *
 * The Skiff agent uses it with its own mark (`lib/skipper`), but nothing here
 * knows about the Skiff agent.
 *
 * @module
 */

import type { NewPaneParams, PaneInfo } from "./panes.ts";
import type { SessionMarks } from "./sessions.ts";

/** A mark: a key and its value. */
export interface MarkPair {
  /** The mark's key. */
  key: string;
  /** The value the session must carry. */
  value: string;
}

/** Which unmarked session may be adopted: one of its panes must match all of these. */
export interface AdoptMatch {
  /** The pane's name. */
  name: string;
  /** The pane's working folder (compared after resolving links). */
  cwd: string;
  /** The known agent in front of the pane, which must be running. */
  agent: string;
}

/** The params of `session.ensure`. */
export interface EnsureSessionParams {
  /** The mark that names the session. */
  mark: MarkPair;
  /** An unmarked session to adopt (and mark) when none carries the mark. */
  adopt?: AdoptMatch;
  /**
   * The pane to make, in a new session that carries the mark, when none is
   * found or adopted. Its `name` and `session` are used when free, else made
   * unique. A marked session whose panes have all exited is replaced.
   * Without it, the request only finds or adopts, and answers `not_found`
   * when there is nothing to find.
   */
  create?: NewPaneParams;
}

/** What `session.ensure` did: found the marked session, adopted one, or made one. */
export type EnsureHow = "found" | "adopted" | "created";

/** What `session.ensure` returns. */
export interface EnsureSessionResult {
  /** What happened. */
  how: EnsureHow;
  /** The session, with its marks. */
  session: SessionMarks;
  /** The session's pane: its first running one, else its first one. */
  pane: PaneInfo;
  /** When `how` is `created` because the marked session had only exited panes: their ids. */
  replaced: string[];
}

/** The `session.ensure` method: name → params and result. */
export interface SessionEnsureMethods {
  /** Finds, adopts or makes the session that carries a mark. */
  "session.ensure": { params: EnsureSessionParams; result: EnsureSessionResult };
}
