/**
 * Skiff's server entry in a TOML file (Codex's `[mcp_servers.skiff]`),
 * owning exactly the keys Skiff writes. Install sets them and removes the
 * ones it wrote before but writes no more (a variable that is no longer
 * set, a key an older Skiff wrote); every other key of the table is the
 * person's (Codex's `tool_timeout_sec`, `enabled`, an `env` variable of
 * their own), kept as it is and left out of the comparison, so a second
 * install is a no-op byte for byte. Uninstall removes the whole server
 * entry (a server table without its command would break the file for the
 * agent), and only what lies between its header and its last key: the
 * comments around it stay.
 *
 * @module
 */

import { parse as parseToml } from "smol-toml";
import { SkiffError } from "../../errors.ts";
import { hasTable, removeTable, setTableKeys, type TomlValue } from "../../config/mod.ts";
import { PLACE_VARIABLES } from "./agents.ts";
import type { JsonValue } from "./jsonc_edit.ts";

/**
 * Every key a Skiff writes or wrote in its TOML entry. One that a newer
 * Skiff no longer writes stays here, so an install after the upgrade
 * removes it rather than leaving it for the person to wonder about.
 */
export const TOML_OWNED_KEYS: readonly string[] = ["command", "args", "env"];

/** Every variable a Skiff writes or wrote in its entry's `env`; the rest of `env` is the person's. */
export const TOML_OWNED_ENV: readonly string[] = PLACE_VARIABLES;

/** What a Skiff owns in its entry: keys of the table, and variables of its `env`. */
export interface TomlOwned {
  /** The table's keys (`env` among them). */
  keys: readonly string[];
  /** The variables of `env`. */
  env: readonly string[];
}

const OWNED: TomlOwned = { keys: TOML_OWNED_KEYS, env: TOML_OWNED_ENV };

type Table = Record<string, unknown>;

/** The table at `path` of `text`, read as the agent reads it (`DATA` when broken). */
export function tomlEntryAt(text: string, path: string[], file: string): Table | undefined {
  let doc: Table;
  try {
    doc = parseToml(text) as Table;
  } catch (error) {
    throw new SkiffError(
      `${file}: ${
        (error as Error).message.split("\n")[0]
      }; fix it or add Skiff by hand (see 'skiff mcp install --print')`,
      { exit: "DATA", details: { file } },
    );
  }
  let node: unknown = doc;
  for (const key of path) node = (node as Table | undefined)?.[key];
  return node && typeof node === "object" ? node as Table : undefined;
}

function envOf(table: Table | undefined): Table {
  const env = table?.env;
  return env && typeof env === "object" && !Array.isArray(env) ? env as Table : {};
}

/**
 * The part of `table` that is Skiff's, keys in a fixed order: what install
 * compares, so keys the person added never make it write again.
 */
export function ownedPart(table: Table | undefined, owned: TomlOwned = OWNED): string {
  const env = envOf(table);
  const keys = owned.keys.filter((k) => k !== "env").map((k) => [k, table?.[k] ?? null]);
  const vars = owned.env.map((v) => [v, env[v] ?? null]);
  return JSON.stringify([keys, vars]);
}

/**
 * `text` with Skiff's entry at `path` set to `entry`: its keys set, the
 * keys Skiff owns but `entry` has not removed, the person's keys kept.
 */
export function setTomlEntry(
  text: string,
  path: string[],
  entry: Record<string, JsonValue>,
  owned: TomlOwned = OWNED,
): string {
  const { env, ...keys } = entry;
  const ours = (env ?? {}) as Record<string, string>;
  const envPath = [...path, "env"];
  const current = text.trim() === "" ? undefined : tomlEntryAt(text, path, "");
  const inline = current?.env !== undefined && !hasTable(text, envPath);
  // The person's variables, kept whatever Skiff writes beside them.
  const theirs = Object.fromEntries(
    Object.entries(envOf(current)).filter(([v]) => !owned.env.includes(v)),
  ) as Record<string, TomlValue>;
  const top: Record<string, TomlValue | null> = {};
  for (const key of owned.keys) if (key !== "env") top[key] = null;
  Object.assign(top, keys);
  // An `env = { … }` written inline is made a table of its own, which the editor keeps keys in.
  if (inline) top.env = null;
  let out = setTableKeys(text, path, top);
  const vars: Record<string, TomlValue | null> = {};
  for (const name of owned.env) vars[name] = ours[name] ?? null;
  Object.assign(vars, ours);
  const wanted = { ...(inline ? theirs : {}), ...vars };
  const hasEnv = hasTable(out, envPath);
  if (Object.values(wanted).some((v) => v !== null)) {
    out = setTableKeys(out, envPath, wanted);
  } else if (hasEnv && Object.keys(theirs).length === 0) {
    // Nothing of Skiff's or the person's is left in it.
    out = removeTable(out, envPath, { keepComments: true });
  } else if (hasEnv) {
    out = setTableKeys(out, envPath, vars);
  }
  return out.endsWith("\n") ? out : `${out}\n`;
}

/** `text` without Skiff's entry at `path` (its sub-tables too); the comments around it stay. */
export function removeTomlEntry(text: string, path: string[] = ["mcp_servers", "skiff"]): string {
  return removeTable(text, path, { keepComments: true });
}
