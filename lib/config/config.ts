/**
 * Reading `projects.toml`: projects, daemon settings and the Skiff agent's
 * settings, checked and with defaults filled in.
 *
 * A TOML error is reported as `file:line:col: message`; a wrong type names the
 * key. Both exit with code 2 and leave the file alone.
 *
 * @module
 */

import { parse, TomlError } from "smol-toml";
import { isAbsolute, resolve } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";
import { DEFAULT_AGENT_FOLDER, expandHome, homeFolder, projectsFile } from "./paths.ts";

/** A project: a name and a root folder. */
export interface Project {
  /** Unique name: letters, digits, `_` and `-`. */
  name: string;
  /** Absolute root folder. */
  root: string;
  /** The default command for new panes in this project, split into words. */
  command?: string[];
  /**
   * The folder that holds the project's worktrees (`skiff new --worktree`),
   * absolute; unset: the default in Skiff's data folder.
   */
  worktrees?: string;
}

/** Settings of skiffd. */
export interface DaemonConfig {
  /** Scrollback lines kept per pane. */
  scrollback: number;
  /** The shell for new and restored panes; the login shell when unset. */
  shell?: string;
  /** Seconds a turn may take to start after a prompt before it counts as not started. */
  turnStartSeconds: number;
}

/** Settings of the Skiff agent. */
export interface SkiffAgentConfig {
  /** Whether the person turned it on. */
  enabled: boolean;
  /** Its name. */
  name: string;
  /** The agent it runs. */
  agent: string;
  /**
   * Its folder as an absolute path, or `null` when the setting starts with
   * `~` and there is no home folder (`HOME` is not set): see
   * {@linkcode agentFolder}.
   */
  folder: string | null;
  /** The folder as the file writes it, or the default `~/skiff-agent`. */
  folderSetting: string;
  /** Whether it continues its last conversation after a restore. */
  continueOnRestore: boolean;
}

/** The whole config. */
export interface Config {
  /** The file it came from. */
  file: string;
  /** Whether the file exists. */
  exists: boolean;
  /** Projects by name, in file order. */
  projects: Project[];
  /** Daemon settings. */
  daemon: DaemonConfig;
  /** Skiff agent settings. */
  skiffAgent: SkiffAgentConfig;
  /** The raw parsed document, for sections other rooms read. */
  document: Record<string, unknown>;
}

/** The pattern a project name must match. */
export const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Default scrollback lines per pane. */
export const DEFAULT_SCROLLBACK = 2000;

function typeError(file: string, key: string, expected: string): SkiffError {
  return new SkiffError(`${file}: '${key}' must be ${expected}`, { exit: "USAGE" });
}

/** Splits a command string into words, honouring simple quotes. */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  let match: RegExpExecArray | null;
  while ((match = re.exec(command)) !== null) {
    words.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : match[2] ?? match[3]);
  }
  return words;
}

function table(file: string, doc: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = doc[key];
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw typeError(file, key, "a table");
  }
  return value as Record<string, unknown>;
}

function readProjects(file: string, doc: Record<string, unknown>): Project[] {
  const projects: Project[] = [];
  for (const [name, raw] of Object.entries(table(file, doc, "projects"))) {
    const key = `projects.${name}`;
    if (!PROJECT_NAME.test(name)) {
      throw new SkiffError(
        `${file}: project name '${name}' may hold only letters, digits, '_' and '-'`,
        { exit: "USAGE" },
      );
    }
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw typeError(file, key, "a table");
    }
    const entry = raw as Record<string, unknown>;
    if (typeof entry.root !== "string" || entry.root === "") {
      throw typeError(file, `${key}.root`, "a folder path");
    }
    const root = expandHome(entry.root);
    if (!isAbsolute(root)) throw typeError(file, `${key}.root`, "an absolute path");
    const project: Project = { name, root: resolve(root) };
    if (entry.command !== undefined) {
      if (typeof entry.command === "string") project.command = splitCommand(entry.command);
      else if (Array.isArray(entry.command) && entry.command.every((w) => typeof w === "string")) {
        project.command = entry.command as string[];
      } else throw typeError(file, `${key}.command`, "a string or a list of strings");
    }
    if (entry.worktrees !== undefined) {
      if (typeof entry.worktrees !== "string" || entry.worktrees === "") {
        throw typeError(file, `${key}.worktrees`, "a folder path");
      }
      // A relative folder is taken from the project's root, so "../api-worktrees" is a sibling.
      project.worktrees = resolve(project.root, expandHome(entry.worktrees));
    }
    projects.push(project);
  }
  return projects;
}

function readDaemon(file: string, doc: Record<string, unknown>): DaemonConfig {
  const daemon = table(file, doc, "daemon");
  const scrollback = daemon.scrollback ?? DEFAULT_SCROLLBACK;
  if (
    typeof scrollback !== "number" || !Number.isInteger(scrollback) || scrollback < 0 ||
    scrollback > 1_000_000
  ) {
    throw typeError(file, "daemon.scrollback", "a whole number of lines from 0 to 1000000");
  }
  if (daemon.shell !== undefined && typeof daemon.shell !== "string") {
    throw typeError(file, "daemon.shell", "a string");
  }
  const turnStart = daemon.turn_start_seconds ?? 10;
  if (typeof turnStart !== "number" || !(turnStart >= 0.5) || turnStart > 3600) {
    throw typeError(file, "daemon.turn_start_seconds", "a number of seconds from 0.5 to 3600");
  }
  return { scrollback, shell: daemon.shell as string | undefined, turnStartSeconds: turnStart };
}

/** Whether a folder setting is absolute or starts with `~` (the only forms allowed). */
export function isFolderSetting(setting: string): boolean {
  return setting === "~" || setting.startsWith("~/") || isAbsolute(setting);
}

/**
 * The absolute path a folder setting names, or `null` when it starts with
 * `~` and there is no home folder.
 */
export function resolveFolderSetting(setting: string): string | null {
  if (setting.startsWith("~") && homeFolder() === undefined) return null;
  return resolve(expandHome(setting));
}

function readSkiffAgent(file: string, doc: Record<string, unknown>): SkiffAgentConfig {
  const agent = table(file, doc, "skiff_agent");
  const str = (key: string, fallback: string) => {
    const value = agent[key] ?? fallback;
    if (typeof value !== "string" || value === "") {
      throw typeError(file, `skiff_agent.${key}`, "a string");
    }
    return value;
  };
  const bool = (key: string, fallback: boolean) => {
    const value = agent[key] ?? fallback;
    if (typeof value !== "boolean") throw typeError(file, `skiff_agent.${key}`, "true or false");
    return value;
  };
  const folderSetting = str("folder", DEFAULT_AGENT_FOLDER);
  // A relative folder would be a different folder from every working folder.
  if (!isFolderSetting(folderSetting)) {
    throw typeError(file, "skiff_agent.folder", "an absolute path or start with ~/");
  }
  return {
    enabled: bool("enabled", false),
    name: str("name", "Skipper"),
    agent: str("agent", "claude"),
    folder: resolveFolderSetting(folderSetting),
    folderSetting,
    continueOnRestore: bool("continue", true),
  };
}

/**
 * The Skiff agent's folder. Throws one clear error (exit `USAGE`) when the
 * setting needs a home folder and `HOME` is not set: there is no default
 * folder then, and `/skiff-agent` would be a guess.
 */
export function agentFolder(config: Config): string {
  const folder = config.skiffAgent.folder;
  if (folder !== null) return folder;
  throw new SkiffError(
    `HOME is not set, so the Skiff agent's folder '${config.skiffAgent.folderSetting}' has no home to be in. Set [skiff_agent] folder to an absolute path ('skiff settings set folder PATH'), or set HOME`,
    { exit: "USAGE" },
  );
}

/** Formats a TOML parse error as `file:line:col: message`. */
export function formatTomlError(file: string, error: TomlError): string {
  const message = error.message.split("\n")[0].replace(/^Invalid TOML document: /, "");
  return `${file}:${error.line}:${error.column}: ${message}`;
}

/** Parses config text; `file` is used in error messages. */
export function parseConfig(text: string, file: string, exists = true): Config {
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) {
      throw new SkiffError(formatTomlError(file, error), { exit: "USAGE" });
    }
    throw error;
  }
  return {
    file,
    exists,
    projects: readProjects(file, doc),
    daemon: readDaemon(file, doc),
    skiffAgent: readSkiffAgent(file, doc),
    document: doc,
  };
}

/** Reads the config file (by default `projects.toml` in the config folder). */
export function loadConfig(file = projectsFile()): Config {
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return parseConfig("", file, false);
    throw new SkiffError(`Cannot read ${file}: ${(error as Error).message}`, { exit: "DATA" });
  }
  return parseConfig(text, file);
}

/** How often {@linkcode ConfigSource.recent} looks at the file. */
export const RECHECK_MS = 500;

/**
 * The config as a long-running process sees it: read again whenever the
 * file changes, so `skiff project add` takes effect without a reload. A
 * broken edit keeps the last good config.
 */
export class ConfigSource {
  readonly #file: string;
  readonly #onError: (message: string) => void;
  #config: Config;
  #stamp = "";
  #checkedAt = 0;

  /**
   * Reads `file` now; a broken file throws (a daemon must not start on a
   * config it cannot read). Later, `onError` hears about edits that could not
   * be read, and the last good config stays.
   */
  constructor(file: string, onError: (message: string) => void) {
    this.#file = file;
    this.#onError = onError;
    this.#config = this.reload();
  }

  #currentStamp(): string {
    try {
      const info = Deno.statSync(this.#file);
      return `${info.ino}:${info.mtime?.getTime()}:${info.size}`;
    } catch {
      return "missing";
    }
  }

  /**
   * The config for hot paths (agent readings, many a second): like
   * {@linkcode ConfigSource.get}, but the file is looked at once every
   * {@linkcode RECHECK_MS} at most.
   */
  recent(): Config {
    return Date.now() - this.#checkedAt < RECHECK_MS ? this.#config : this.get();
  }

  /** The config, re-read first if the file changed. */
  get(): Config {
    this.#checkedAt = Date.now();
    if (this.#currentStamp() !== this.#stamp) {
      try {
        this.reload();
      } catch (error) {
        this.#onError((error as Error).message);
        this.#stamp = this.#currentStamp();
      }
    }
    return this.#config;
  }

  /** Reads the file now; throws (keeping the old config) when it is broken. */
  reload(): Config {
    const stamp = this.#currentStamp();
    this.#config = loadConfig(this.#file);
    this.#stamp = stamp;
    return this.#config;
  }
}
