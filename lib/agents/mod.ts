/**
 * Agent awareness: profiles, screen rules, the per-pane tracker and hooks.
 *
 * @module
 */

export * from "./profile.ts";
export * from "./rules.ts";
export * from "./registry.ts";
export * from "./tracker.ts";
export * from "./hooks.ts";
export { BUILT_IN } from "./profiles/mod.ts";
export * from "./launch.ts";
