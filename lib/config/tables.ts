/**
 * The tables of `projects.toml` that this room reads (`[projects.NAME]`,
 * `[daemon]`, `[skiff_agent]`, `[attach]`), each turned into checked
 * settings with defaults filled in. Every table's list of known keys sits
 * beside its reader, so a new key is one line there plus its reading.
 *
 * @module
 */

import { isAbsolute, resolve } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";
import { DEFAULT_AGENT_FOLDER, expandHome, homeFolder } from "./paths.ts";
import {
  type AttachKey,
  type AttachKeys,
  DEFAULT_DETACH_KEY,
  DEFAULT_HISTORY_KEY,
  parseAttachKey,
} from "./attach_keys.ts";
import type { ConfigPlaces } from "./keys.ts";

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
  /** False: a restore resumes no agent in the project's panes (`resume = false`). */
  resume?: boolean;
  /**
   * The check `skiff land` runs before it lands a worktree of the project
   * (`check = "COMMAND"`): a shell command, run in the project's root in the
   * worktree; a non-zero exit refuses the landing.
   */
  check?: string;
}

/** Settings of skiffd. */
export interface DaemonConfig {
  /** Scrollback lines kept per pane. */
  scrollback: number;
  /** The shell for new and restored panes; the login shell when unset. */
  shell?: string;
  /** Seconds a turn may take to start after a prompt before it counts as not started. */
  turnStartSeconds: number;
  /** Whether a restore resumes the conversation of each pane's agent (`resume`, default true). */
  resume: boolean;
  /**
   * Seconds a pane's screen stays quiet and unattached before skiffd lets its
   * emulator go and keeps its state compactly (`screen_sleep_seconds`); 0 never.
   */
  screenSleepSeconds: number;
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
   * `agentFolder` in config.ts.
   */
  folder: string | null;
  /** The folder as the file writes it, or the default `~/skiff-agent`. */
  folderSetting: string;
  /** Whether it continues its last conversation after a restore. */
  continueOnRestore: boolean;
  /**
   * Whether it may land a worker's branch (`skiff land`) without asking the
   * person first: `ask` (the default) or `auto`.
   */
  land: LandSetting;
}

/** The values of `[skiff_agent] land`. */
export const LAND_SETTINGS = ["ask", "auto"] as const;

/** A value of `[skiff_agent] land`. */
export type LandSetting = typeof LAND_SETTINGS[number];

/** The pattern a project name must match. */
export const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Default scrollback lines per pane. */
export const DEFAULT_SCROLLBACK = 2000;

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

/** The table `key` of the document, or an empty one when it is not written. */
function table(
  places: ConfigPlaces,
  doc: Record<string, unknown>,
  key: string,
): Record<string, unknown> {
  const value = doc[key];
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw places.keyError([key], "must be a table");
  }
  return value as Record<string, unknown>;
}

/** The keys of a `[projects.NAME]` table. */
export const PROJECT_KEYS = ["root", "command", "worktrees", "resume", "check"] as const;

/** Reads and checks the `[projects.NAME]` tables, in file order. */
export function readProjects(places: ConfigPlaces, doc: Record<string, unknown>): Project[] {
  const projects: Project[] = [];
  for (const [name, raw] of Object.entries(table(places, doc, "projects"))) {
    const key = ["projects", name];
    if (!PROJECT_NAME.test(name)) {
      throw new SkiffError(
        `${places.at(key)}: project name '${name}' may hold only letters, digits, '_' and '-' ` +
          "(1 to 64, starting with a letter or digit)",
        { exit: "USAGE" },
      );
    }
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw places.keyError(key, "must be a table");
    }
    const entry = raw as Record<string, unknown>;
    places.onlyKnown(entry, key, PROJECT_KEYS);
    if (typeof entry.root !== "string" || entry.root === "") {
      throw places.keyError([...key, "root"], "must be a folder path");
    }
    const root = expandHome(entry.root);
    if (!isAbsolute(root)) throw places.keyError([...key, "root"], "must be an absolute path");
    const project: Project = { name, root: resolve(root) };
    if (entry.command !== undefined) {
      if (typeof entry.command === "string") project.command = splitCommand(entry.command);
      else if (Array.isArray(entry.command) && entry.command.every((w) => typeof w === "string")) {
        project.command = entry.command as string[];
      } else throw places.keyError([...key, "command"], "must be a string or a list of strings");
    }
    if (entry.worktrees !== undefined) {
      if (typeof entry.worktrees !== "string" || entry.worktrees === "") {
        throw places.keyError([...key, "worktrees"], "must be a folder path");
      }
      // A relative folder is taken from the project's root, so "../api-worktrees" is a sibling.
      project.worktrees = resolve(project.root, expandHome(entry.worktrees));
    }
    if (entry.resume !== undefined) {
      if (typeof entry.resume !== "boolean") {
        throw places.keyError([...key, "resume"], "must be true or false");
      }
      project.resume = entry.resume;
    }
    if (entry.check !== undefined) {
      if (typeof entry.check !== "string" || entry.check.trim() === "") {
        throw places.keyError(
          [...key, "check"],
          'must be a shell command, such as "deno task test"',
        );
      }
      project.check = entry.check;
    }
    projects.push(project);
  }
  return projects;
}

/** The keys of `[daemon]`. */
export const DAEMON_KEYS = [
  "scrollback",
  "shell",
  "turn_start_seconds",
  "resume",
  "screen_sleep_seconds",
] as const;

/** How long a quiet screen stays awake by default (see {@linkcode DaemonConfig.screenSleepSeconds}). */
export const DEFAULT_SCREEN_SLEEP_SECONDS = 30;

/** Reads and checks `[daemon]`, with defaults for what it leaves out. */
export function readDaemon(places: ConfigPlaces, doc: Record<string, unknown>): DaemonConfig {
  const daemon = table(places, doc, "daemon");
  places.onlyKnown(daemon, ["daemon"], DAEMON_KEYS);
  const scrollback = daemon.scrollback ?? DEFAULT_SCROLLBACK;
  if (
    typeof scrollback !== "number" || !Number.isInteger(scrollback) || scrollback < 0 ||
    scrollback > 1_000_000
  ) {
    throw places.keyError(
      ["daemon", "scrollback"],
      "must be a whole number of lines from 0 to 1000000",
    );
  }
  if (daemon.shell !== undefined && typeof daemon.shell !== "string") {
    throw places.keyError(["daemon", "shell"], "must be a string");
  }
  const turnStart = daemon.turn_start_seconds ?? 10;
  if (typeof turnStart !== "number" || !(turnStart >= 0.5) || turnStart > 3600) {
    throw places.keyError(
      ["daemon", "turn_start_seconds"],
      "must be a number of seconds from 0.5 to 3600",
    );
  }
  const resume = daemon.resume ?? true;
  if (typeof resume !== "boolean") {
    throw places.keyError(["daemon", "resume"], "must be true or false");
  }
  const sleep = daemon.screen_sleep_seconds ?? DEFAULT_SCREEN_SLEEP_SECONDS;
  if (typeof sleep !== "number" || !(sleep >= 0) || sleep > 86_400) {
    throw places.keyError(
      ["daemon", "screen_sleep_seconds"],
      "must be a number of seconds from 0 (never) to 86400",
    );
  }
  return {
    scrollback,
    shell: daemon.shell as string | undefined,
    turnStartSeconds: turnStart,
    resume,
    screenSleepSeconds: sleep,
  };
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

/** The keys of `[skiff_agent]`, in the order `skiff settings` shows them. */
export const SKIFF_AGENT_KEYS = ["enabled", "agent", "name", "continue", "folder", "land"] as const;

/** Reads and checks `[skiff_agent]`, with defaults for what it leaves out. */
export function readSkiffAgent(
  places: ConfigPlaces,
  doc: Record<string, unknown>,
): SkiffAgentConfig {
  const agent = table(places, doc, "skiff_agent");
  places.onlyKnown(agent, ["skiff_agent"], SKIFF_AGENT_KEYS);
  const str = (key: string, fallback: string) => {
    const value = agent[key] ?? fallback;
    if (typeof value !== "string" || value === "") {
      throw places.keyError(["skiff_agent", key], "must be a string");
    }
    return value;
  };
  const bool = (key: string, fallback: boolean) => {
    const value = agent[key] ?? fallback;
    if (typeof value !== "boolean") {
      throw places.keyError(["skiff_agent", key], "must be true or false");
    }
    return value;
  };
  const folderSetting = str("folder", DEFAULT_AGENT_FOLDER);
  // A relative folder would be a different folder from every working folder.
  if (!isFolderSetting(folderSetting)) {
    throw places.keyError(["skiff_agent", "folder"], "must be an absolute path or start with ~/");
  }
  const land = agent.land ?? "ask";
  if (!(LAND_SETTINGS as readonly unknown[]).includes(land)) {
    throw places.keyError(["skiff_agent", "land"], 'must be "ask" or "auto"');
  }
  return {
    enabled: bool("enabled", false),
    name: str("name", "Skipper"),
    agent: str("agent", "claude"),
    folder: resolveFolderSetting(folderSetting),
    folderSetting,
    continueOnRestore: bool("continue", true),
    land: land as LandSetting,
  };
}

/**
 * The gates of `skiff mcp`: each lets the tools of one kind of change be
 * offered (`all` in a list lets every one).
 */
export const MCP_GATES = ["send", "new", "land", "ledger", "seen", "kill"] as const;

/** A gate of `skiff mcp`. */
export type McpGate = typeof MCP_GATES[number];

/** `[mcp]`: what `skiff mcp` offers when no `--allow` is given. */
export interface McpConfig {
  /** The gates it opens, or null when the file names none (nothing that changes anything). */
  allow: McpGate[] | null;
}

/** The keys of `[mcp]`. */
export const MCP_KEYS = ["allow"] as const;

/**
 * Reads a list of gates (`send`, …, or `all` for every one) in the order
 * given, without repeats; `bad` words the error for a word that is no gate.
 */
export function readMcpGates(words: readonly string[], bad: (word: string) => Error): McpGate[] {
  const gates: McpGate[] = [];
  for (const word of words) {
    if (word === "all") return [...MCP_GATES];
    if (!(MCP_GATES as readonly string[]).includes(word)) throw bad(word);
    if (!gates.includes(word as McpGate)) gates.push(word as McpGate);
  }
  return gates;
}

/** Reads and checks `[mcp]`. */
export function readMcp(places: ConfigPlaces, doc: Record<string, unknown>): McpConfig {
  const mcp = table(places, doc, "mcp");
  places.onlyKnown(mcp, ["mcp"], MCP_KEYS);
  const allow = mcp.allow;
  if (allow === undefined) return { allow: null };
  const what = `must be a list of gates: ${MCP_GATES.join(", ")} or all`;
  if (!Array.isArray(allow) || allow.some((w) => typeof w !== "string")) {
    throw places.keyError(["mcp", "allow"], what);
  }
  return {
    allow: readMcpGates(
      allow as string[],
      (word) => places.keyError(["mcp", "allow"], `has '${word}', not a gate; ${what}`),
    ),
  };
}

/** The keys of `[attach]`. */
export const ATTACH_KEYS = ["detach_key", "history_key"] as const;

/** Reads and checks `[attach]`: the detach key, and the history key or none. */
export function readAttach(places: ConfigPlaces, doc: Record<string, unknown>): AttachKeys {
  const attach = table(places, doc, "attach");
  places.onlyKnown(attach, ["attach"], ATTACH_KEYS);
  const key = (name: string, fallback: string, off: boolean): AttachKey | null => {
    const value = attach[name] ?? fallback;
    if (typeof value !== "string") {
      throw places.keyError(["attach", name], 'must be a key, such as "C-]"');
    }
    if (off && (value === "" || value === "none")) return null;
    const parsed = parseAttachKey(value);
    if (typeof parsed === "string") throw places.keyError(["attach", name], parsed);
    return parsed;
  };
  const detach = key("detach_key", DEFAULT_DETACH_KEY, false)!;
  const history = key("history_key", DEFAULT_HISTORY_KEY, true);
  if (history && history.name === detach.name) {
    throw places.keyError(
      ["attach", "history_key"],
      `is the detach key '${detach.name}'; pick another, or "none"`,
    );
  }
  return { detach, history };
}
