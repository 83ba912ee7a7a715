/**
 * The sizes a pane may take, in a module of their own: the command line
 * checks a size before it connects, and a start should not load the whole
 * pane protocol for two constants.
 *
 * @module
 */

/**
 * The smallest size a pane takes: an agent can still draw its input box in
 * it. A smaller terminal attached to a pane shows its top-left part.
 */
export const MIN_PANE_SIZE = { cols: 20, rows: 5 } as const;

/** The largest size a pane takes. */
export const MAX_PANE_SIZE = { cols: 1000, rows: 1000 } as const;
