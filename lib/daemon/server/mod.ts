/**
 * skiffd's socket and what it answers: the connections (JSON lines, attach
 * streams, event streams), the method table typed against `lib/protocol`,
 * the checks of every request's params, the services beside the socket,
 * and what skiffd keeps of the watcher's health.
 *
 * @module
 */

export { type DaemonControl } from "./method_types.ts";
export { Server } from "./server.ts";
export { type DaemonService, noService, type ServiceHost, Services } from "./services.ts";
export { type UpgradeRequest, type UpgradeStep } from "./upgrade_request.ts";
export { WatcherRegistry } from "./watcher_health.ts";
export { countWorktreesOnTurnEnd } from "./worktree_methods.ts";
