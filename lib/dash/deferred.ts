/**
 * The parts of the dashboard its first frame does not need: the keys, the
 * events follower, the attach and the config's agents. The dashboard loads
 * them by a computed name as it asks skiffd for its first listing, so their
 * loading overlaps skiffd's answer instead of coming before the question.
 * Keys typed meanwhile wait in the terminal, and the events follower lists
 * again once it is subscribed, so nothing is lost by the wait.
 *
 * @module
 */

export { handleKey } from "./controls.ts";
export { readKeys } from "./key_reader.ts";
export { attachFromDash } from "./open_pane.ts";
export { readDashConfig } from "./dash_config.ts";
export { followDashEvents } from "./dash_events.ts";
