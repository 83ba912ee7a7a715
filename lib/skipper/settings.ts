/**
 * The Skiff agent's settings, `[skiff_agent]` in `projects.toml`: read with
 * their defaults filled in, and set one key at a time with the value
 * checked first. `skiff settings` and the app both use this.
 *
 * @module
 */

import { AgentRegistry } from "../agents/registry.ts";
import { type Config, loadConfig } from "../config/config.ts";
import {
  isFolderSetting,
  LAND_SETTINGS,
  type LandSetting,
  resolveFolderSetting,
  SKIFF_AGENT_KEYS,
} from "../config/tables.ts";
import { nearestWord } from "../config/keys.ts";
import { editConfig } from "../config/edit.ts";
import { projectsFile } from "../config/paths.ts";
import { setTableKeys, type TomlValue } from "../config/toml_edit.ts";
import { SkiffError } from "../errors.ts";
import { checkFolder, type FolderKind } from "./folder.ts";

/** The keys of `[skiff_agent]`, in the order they are shown (listed beside their reading). */
export const SETTING_KEYS = SKIFF_AGENT_KEYS;

/** One key of `[skiff_agent]`. */
export type SettingKey = typeof SETTING_KEYS[number];

/** The pattern a name must match: it names the session and its pane too. */
export const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}$/;

/** The settings, defaults filled in. */
export interface SkiffAgentSettings {
  /** Whether the Skiff agent is on. */
  enabled: boolean;
  /** The agent it runs. */
  agent: string;
  /** Its name. */
  name: string;
  /** Whether it continues its last conversation after a restore. */
  continue: boolean;
  /** Its folder, as written (`~/skiff-agent` by default). */
  folder: string;
  /**
   * Whether it may land a worker's branch with `skiff land` on its own
   * (`auto`) or asks the person first (`ask`, the default).
   */
  land: LandSetting;
}

/** Whether the folder can be used, and why not. */
export interface FolderStatus {
  /** The absolute path, or null when the setting needs a home folder and there is none. */
  path: string | null;
  /** What it holds, when the path is known. */
  kind: FolderKind | null;
  /** Whether the Skiff agent can live there. */
  usable: boolean;
  /** Why not (the line the app shows under the path). */
  reason: string | null;
}

/** What `skiff settings` shows. */
export interface SettingsReport {
  /** The config file. */
  file: string;
  /** The settings, defaults filled in. */
  settings: SkiffAgentSettings;
  /** The keys the file does not set, whose defaults are shown. */
  defaults: SettingKey[];
  /** Whether the folder can be used. */
  folder: FolderStatus;
}

/** The reason a folder setting cannot be used, for a path that needs a home folder. */
const NO_HOME = "HOME is not set, so a folder under ~ has no place";

/** Checks the folder of `config`'s settings. */
export function folderStatus(config: Config): FolderStatus {
  const path = config.skiffAgent.folder;
  if (path === null) return { path, kind: null, usable: false, reason: NO_HOME };
  const check = checkFolder(path, config);
  return { path, kind: check.kind, usable: check.usable, reason: check.reason ?? null };
}

/** Reads the settings from `config` (by default, the user's). */
export function readSettings(config: Config = loadConfig()): SettingsReport {
  const agent = config.skiffAgent;
  const table = config.document.skiff_agent as Record<string, unknown> | undefined;
  return {
    file: config.file,
    settings: {
      enabled: agent.enabled,
      agent: agent.agent,
      name: agent.name,
      continue: agent.continueOnRestore,
      folder: agent.folderSetting,
      land: agent.land,
    },
    defaults: SETTING_KEYS.filter((key) => table?.[key] === undefined),
    folder: folderStatus(config),
  };
}

function bad(key: string, why: string): SkiffError {
  return new SkiffError(`Bad value for '${key}': ${why}`, { exit: "USAGE" });
}

function boolean(key: string, raw: string): boolean {
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw bad(key, `use true or false, not '${raw}'`);
}

/**
 * Checks `raw` as the value of `key` against `config` and returns the value
 * to write. Throws exit `USAGE` with one line that says why it cannot be.
 */
export function checkSetting(key: string, raw: string, config: Config): TomlValue {
  switch (key as SettingKey) {
    case "enabled":
    case "continue":
      return boolean(key, raw);
    case "agent": {
      const registry = new AgentRegistry(config);
      if (registry.get(raw)) return raw;
      const known = registry.profiles.map((p) => p.id).join(", ");
      throw bad(key, `no agent '${raw}'; known agents: ${known}`);
    }
    case "name":
      if (AGENT_NAME.test(raw)) return raw;
      throw bad(
        key,
        "use 1 to 40 letters, digits, spaces, '.', '_' and '-', starting with a letter or digit",
      );
    case "land":
      if ((LAND_SETTINGS as readonly string[]).includes(raw)) return raw;
      throw bad(
        key,
        `use ask (ask the person before each landing) or auto (land when the checks pass), not '${raw}'`,
      );
    case "folder": {
      if (!isFolderSetting(raw)) {
        throw bad(key, `'${raw}' must be an absolute path or start with ~/`);
      }
      const path = resolveFolderSetting(raw);
      if (path === null) throw bad(key, NO_HOME);
      const check = checkFolder(path, config);
      if (!check.usable) throw bad(key, `cannot use ${path}: ${check.reason}`);
      return raw;
    }
    default: {
      const near = nearestWord(key, SETTING_KEYS);
      throw new SkiffError(
        `Unknown setting '${key}'; ${
          near ? `did you mean '${near}'?` : `the settings are ${SETTING_KEYS.join(", ")}`
        }`,
        { exit: "USAGE" },
      );
    }
  }
}

/** Options for {@linkcode setSetting}. */
export interface SetSettingOptions {
  /** The config file; by default `projects.toml` in the config folder. */
  file?: string;
}

/**
 * Sets one key of `[skiff_agent]` after checking its value, and changes
 * nothing else in the file. A bad value throws exit `USAGE` and writes
 * nothing. Returns the settings as they are now.
 */
export async function setSetting(
  key: string,
  raw: string,
  options: SetSettingOptions = {},
): Promise<SettingsReport> {
  const file = options.file ?? projectsFile();
  // Checked once before anything is touched, and again under the file's lock.
  checkSetting(key, raw, loadConfig(file));
  const config = await editConfig((text, current) => {
    const value = checkSetting(key, raw, current);
    return setTableKeys(text, ["skiff_agent"], { [key]: value });
  }, file);
  return readSettings(config);
}
