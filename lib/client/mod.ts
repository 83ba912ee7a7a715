/**
 * Talking to skiffd from commands and from programs that embed Skiff.
 *
 * @module
 */

export {
  type CallArgs,
  type CallOptions,
  ConnectionClosed,
  DaemonClient,
  errorFromResponse,
  EventSubscription,
  linkSocketHost,
  markLinkSocket,
} from "./client.ts";
export { followEvents, type FollowOptions } from "./follow.ts";
export {
  connectDaemon,
  type ConnectOptions,
  daemonAlive,
  reconnect,
  startDaemon,
  tryConnect,
} from "./connect.ts";
export { withDaemon } from "./use.ts";
export { compareVersions, quietSkewHint, skewHint } from "./skew.ts";
export { keptPanes, upgradeDaemon, type UpgradeOptions, type UpgradeResult } from "./upgrade.ts";
export { clientEnv } from "./env.ts";
export {
  restartDaemon,
  type RestartOutcome,
  stopDaemon,
  type StopOutcome,
  stopRunning,
  waitUntilGone,
} from "./lifecycle.ts";
