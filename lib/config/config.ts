/**
 * Reading `projects.toml`: the file parsed, its top-level tables checked,
 * and each table handed to its reader (`tables.ts`) into one {@linkcode Config}.
 *
 * A TOML error is reported as `file:line:col: message`; a wrong type names the
 * key. Both exit with code 2 and leave the file alone.
 *
 * @module
 */

import { parse, TomlError } from "smol-toml";
import { SkiffError } from "../errors.ts";
import { projectsFile } from "./paths.ts";
import type { AttachKey, AttachKeys } from "./attach_keys.ts";
import { ConfigPlaces, type KeptElsewhere } from "./keys.ts";
import {
  type DaemonConfig,
  type LandSetting,
  type McpConfig,
  type Project,
  readAttach,
  readDaemon,
  readMcp,
  readProjects,
  readSkiffAgent,
  type SkiffAgentConfig,
} from "./tables.ts";
import { tomlHint } from "./toml_hints.ts";

// A Config is made of these: whoever reads one names them from here.
export type {
  AttachKey,
  AttachKeys,
  DaemonConfig,
  LandSetting,
  McpConfig,
  Project,
  SkiffAgentConfig,
};

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
  /** The keys of an attached terminal (`[attach]`). */
  attach: AttachKeys;
  /** What `skiff mcp` offers by default (`[mcp]`). */
  mcp: McpConfig;
  /** The raw parsed document, for sections other rooms read. */
  document: Record<string, unknown>;
  /** Where each key is written, for error lines (`file:line:col`) about it. */
  places: ConfigPlaces;
}

/*
 * Known keys. Every table of the file has its list of keys beside the
 * function that reads it (tables.ts), and a key not listed is refused (with its place
 * and the nearest known key), so a typo never passes silently. Adding a key
 * is one line in its table's list plus its reading; adding a table is one
 * line in TOP_LEVEL_TABLES (a table read in another room checks its own keys
 * with ConfigPlaces.onlyKnown, as [agents.NAME] does).
 */

/**
 * The tables of `projects.toml`. `agents` is read by `lib/agents`
 * (profile_toml.ts), and `hosts` by `lib/hosts` (config.ts), each host when
 * it is used, so a broken host never stops anything else.
 */
export const TOP_LEVEL_TABLES = [
  "daemon",
  "projects",
  "skiff_agent",
  "attach",
  "agents",
  "hosts",
  "mcp",
] as const;

/**
 * Tables people write that Skiff keeps under another name: an unknown one
 * of these is refused with where its settings are. The Skiff agent is
 * "Skipper" in its own words, but its settings have always been
 * `[skiff_agent]`; one place for them, and a `[skipper]` table says so.
 */
export const TABLES_ELSEWHERE: Readonly<Record<string, KeptElsewhere>> = {
  skipper: {
    name: "skiff_agent",
    hint: "the Skiff agent's settings live under [skiff_agent] (land, agent, folder, …)",
  },
};

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

/**
 * Formats a TOML parse error as `file:line:col: message`, followed by what is
 * likely wrong where the parser's words are cryptic (`text` is the document).
 */
export function formatTomlError(file: string, error: TomlError, text?: string): string {
  const message = error.message.split("\n")[0].replace(/^Invalid TOML document: /, "");
  const line = text?.split("\n")[error.line - 1]?.replace(/\r$/, "");
  const hint = line === undefined ? undefined : tomlHint(message, line, error.column);
  return `${file}:${error.line}:${error.column}: ${message}${hint ? `; ${hint}` : ""}`;
}

/** Parses config text; `file` is used in error messages. */
export function parseConfig(text: string, file: string, exists = true): Config {
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) {
      throw new SkiffError(formatTomlError(file, error, text), { exit: "USAGE" });
    }
    throw error;
  }
  const places = new ConfigPlaces(file, text);
  places.onlyKnown(doc, [], TOP_LEVEL_TABLES, "table", TABLES_ELSEWHERE);
  return {
    file,
    exists,
    projects: readProjects(places, doc),
    daemon: readDaemon(places, doc),
    skiffAgent: readSkiffAgent(places, doc),
    attach: readAttach(places, doc),
    mcp: readMcp(places, doc),
    document: doc,
    places,
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
