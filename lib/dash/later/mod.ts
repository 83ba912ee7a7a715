/**
 * The parts of the dashboard its first frame does not need: what keys do,
 * the events follower, the attach, the diff's pager, the config's agents, and the followers of
 * `projects.toml` and of the other hosts. The dashboard loads them by a computed name once its
 * first frame is drawn (or at the first key, if that comes first), so that
 * their loading is not in that frame's way. Keys read meanwhile wait for
 * them, in order, and the events follower lists again once it is
 * subscribed, so nothing is lost by the wait.
 *
 * @module
 */

export { handleKey } from "./controls.ts";
export { attachFromDash } from "./open_pane.ts";
export { diffSummary, pageDiff } from "./diff_pager.ts";
export { readDashConfig } from "./dash_config.ts";
export { followDashEvents } from "./dash_events.ts";
export { ConfigFollower } from "../../overview/config_follow.ts";
export { HostsFollow } from "../../overview/hosts.ts";
