/**
 * Keeping the watcher (`skiff watch`) running while the Skiff agent's
 * session exists: started by skiffd, one at a time (its lock), and handed
 * over after an upgrade.
 *
 * @module
 */

export { followSkiffAgent } from "./watcher_follow.ts";
