/**
 * Agent awareness: profiles, screen rules, the per-pane tracker, hooks and
 * how to start an agent.
 *
 * @module
 */

export * from "./profiles/mod.ts";
export * from "./profile_toml.ts";
export * from "./rules.ts";
export * from "./registry.ts";
export * from "./tracker.ts";
export * from "./hooks.ts";
export * from "./hook_setup.ts";
export * from "./launch.ts";
