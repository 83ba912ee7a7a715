/**
 * The session methods of the protocol: list sessions, read and set marks.
 *
 * @module
 */

/**
 * The mark that names the Skiff agent's session (its value is `1`). Every
 * part of Skiff finds the session by it.
 */
export const SKIFF_AGENT_MARK = "skiff-agent";

/** A session as `session.list` describes it. */
export interface SessionInfo {
  /** `s<number>`, never reused. */
  id: string;
  /** Unique name. */
  name: string;
  /** The project, if any. */
  project?: string;
  /** Key → value marks. */
  marks: Record<string, string>;
  /** When it was made (ISO 8601). */
  created: string;
  /** The ids of its panes. */
  panes: string[];
}

/** A session's marks. */
export interface SessionMarks {
  /** The session's id. */
  session: string;
  /** The session's name. */
  name: string;
  /** Key → value marks. */
  marks: Record<string, string>;
}

/** The session methods: name → params and result. */
export interface SessionMethods {
  /** Lists every session. */
  "session.list": { params: Record<string, never>; result: { sessions: SessionInfo[] } };
  /** Reads a session's marks; the session is named by its id, its name or one of its panes. */
  "session.get": { params: { session: string }; result: SessionMarks };
  /**
   * Sets a mark, or clears it with a `null` value. With `expect`, only when
   * the mark's current value is `expect` (`null`: the mark is absent), else
   * exit `CONFLICT`: two clients cannot both claim the same mark.
   */
  "session.mark": {
    params: { session: string; key: string; value: string | null; expect?: string | null };
    result: SessionMarks;
  };
}
