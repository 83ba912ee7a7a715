/**
 * Config and file locations: `projects.toml`, and where the socket, state and
 * agent folder live.
 *
 * @module
 */

export * from "./paths.ts";
export * from "./config.ts";
export * from "./config_source.ts";
export * from "./tables.ts";
export * from "./edit.ts";
export * from "./projects.ts";
export {
  hasTable,
  removeTable,
  type RemoveTableOptions,
  setTableKeys,
  tablePath,
  type TomlValue,
  tomlValue,
} from "./toml_edit.ts";
