/**
 * How every part of Skiff recognises the Skiff agent's session: by a mark
 * on the session, kept in the workspace through reloads and restores.
 *
 * @module
 */

/** The mark key of the Skiff agent's session, defined once in the protocol. */
export { SKIFF_AGENT_MARK } from "../protocol/sessions.ts";

/** The value of {@linkcode SKIFF_AGENT_MARK}. */
export const SKIFF_AGENT_MARK_VALUE = "1";

/**
 * The mark that holds when Skiff last typed a start line into the session
 * (ms since the epoch). It lives on the session, so a second `skiff skipper`
 * in another process sees it.
 */
export const START_LINE_MARK = "skiff-agent.start-line-at";

/** For this long after Skiff types a start line, another open types nothing. */
export const START_GUARD_MS = 15_000;
