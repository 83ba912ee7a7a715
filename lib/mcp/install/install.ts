/**
 * `skiff mcp install` and `uninstall`: Skiff's entry in an agent's own MCP
 * configuration, edited in place (every other entry and comment stays), so
 * the agent starts `skiff mcp` by itself. The entry runs the `skiff` that
 * installs it, by absolute path (an agent finds it without PATH), with the
 * variables that say where Skiff's files are when they are set, so the
 * server reaches the same skiffd as the shell that installed it. Installing
 * again changes nothing when the entry is already so; uninstalling removes
 * only Skiff's entry, and what install made for it (an `mcpServers` the file
 * had not, see `made.ts`) once nothing else is in it. In a TOML file the
 * entry is a table of its own, of which Skiff owns only the keys it writes
 * (`toml_entry.ts`).
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";
import { dirname } from "../../platform/path.ts";
import { ensureDir, pathExists, writeFileAtomic } from "../../platform/files.ts";
import { selfCommand } from "../../platform/spawn_self.ts";
import { MCP_GATES, type McpGate } from "../../config/mod.ts";
import {
  type AgentConfig,
  agentConfig,
  type InstallAgent,
  PLACE_VARIABLES,
  type ServerCommand,
} from "./agents.ts";
import {
  bareObjectAt,
  existingDepth,
  type JsonValue,
  removeEntry,
  setEntry,
  valueAt,
} from "./jsonc_edit.ts";
import { madeFor, noteMade } from "./made.ts";
import { ownedPart, removeTomlEntry, setTomlEntry, tomlEntryAt } from "./toml_entry.ts";

export { PLACE_VARIABLES };

/** What the installed server is started with. */
export interface ServeArgs {
  /**
   * The gates it opens. Left out, the entry names none and the server opens
   * what `[mcp] allow` says; given empty, the entry says `--allow none`.
   */
  gates?: readonly McpGate[];
  /** The project it is limited to. */
  project?: string;
  /** The host of bare pane refs. */
  host?: string;
}

/** What an install or uninstall did. */
export interface InstallResult {
  /** The agent. */
  agent: InstallAgent;
  /** The file it edited (or would edit). */
  file: string;
  /** Whether the file changed. */
  changed: boolean;
  /**
   * Skiff's entry as it wrote it (null after an uninstall); a TOML table may
   * also hold keys the person added, which stay.
   */
  entry: Record<string, JsonValue> | null;
}

/** The command line of `skiff mcp` with `serve`'s options, as this `skiff` runs itself. */
export function serverCommand(serve: ServeArgs = {}): ServerCommand {
  const args = ["mcp"];
  const gates = serve.gates;
  if (gates !== undefined && gates.length === 0) {
    // Asked for nothing that changes anything: without the flag, [mcp] allow would open gates.
    args.push("--allow", "none");
  } else if (gates !== undefined) {
    const all = MCP_GATES.every((g) => gates.includes(g));
    // In the gates' own order, so the same gates always make the same entry.
    args.push("--allow", all ? "all" : MCP_GATES.filter((g) => gates.includes(g)).join(","));
  }
  if (serve.project !== undefined) args.push("--project", serve.project);
  if (serve.host !== undefined) args.push("--host", serve.host);
  const self = selfCommand(args);
  // A checkout's entry is a file URL: its path reads better, and Deno takes either.
  const words = self.args.map((a) =>
    a.startsWith("file://") ? decodeURIComponent(new URL(a).pathname) : a
  );
  const env: Record<string, string> = {};
  for (const name of PLACE_VARIABLES) {
    const value = Deno.env.get(name);
    if (value) env[name] = value;
  }
  return { program: self.program, args: words, env };
}

/** The snippet to add by hand: the file, and Skiff's entry as it would go in. */
export function installSnippet(agent: InstallAgent, serve: ServeArgs = {}): {
  file: string;
  text: string;
  entry: Record<string, JsonValue>;
} {
  const config = agentConfig(agent);
  const entry = config.entry(serverCommand(serve));
  const text = config.format === "toml"
    ? setTomlEntry("", config.path, entry)
    : JSON.stringify(nest(config.path, entry), null, 2) + "\n";
  return { file: config.file, text, entry };
}

function nest(path: string[], value: JsonValue): JsonValue {
  return path.reduceRight<JsonValue>((inner, key) => ({ [key]: inner }), value);
}

/** Keys in order, for comparing entries whatever order a file holds them in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : 1
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function readText(file: string): string {
  try {
    return Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "";
    throw new SkiffError(`Cannot read ${file}: ${(error as Error).message}`, { exit: "DATA" });
  }
}

/** Writes `text` over `file` atomically; a symlinked file (dotfiles) is written where it points. */
function writeText(file: string, text: string): void {
  let target = file;
  try {
    target = Deno.realPathSync(file);
  } catch {
    ensureDir(dirname(file));
  }
  try {
    writeFileAtomic(target, text);
  } catch (error) {
    throw new SkiffError(`Cannot write ${file}: ${(error as Error).message}`, { exit: "DATA" });
  }
}

function currentEntry(config: AgentConfig, text: string): unknown {
  return config.format === "toml"
    ? tomlEntryAt(text, config.path, config.file)
    : valueAt(text, config.path, config.file);
}

/** Whether the entry in the file is `entry` already: for TOML, only the keys Skiff owns count. */
function alreadySo(config: AgentConfig, current: unknown, entry: Record<string, JsonValue>) {
  if (config.format === "toml") {
    return current !== undefined &&
      ownedPart(current as Record<string, unknown>) === ownedPart(entry);
  }
  return canonical(current) === canonical(entry);
}

/**
 * Adds Skiff to `agent`'s MCP servers (or sets its entry), in place. A file
 * whose entry is already so is left byte for byte.
 */
export function installMcp(agent: InstallAgent, serve: ServeArgs = {}): InstallResult {
  const config = agentConfig(agent);
  const entry = config.entry(serverCommand(serve));
  const text = readText(config.file);
  const current = currentEntry(config, text);
  if (alreadySo(config, current, entry)) {
    return { agent, file: config.file, changed: false, entry };
  }
  const next = config.format === "toml"
    ? setTomlEntry(text, config.path, entry)
    : setEntry(text, config.path, entry, config.file);
  if (config.format === "json" && current === undefined) {
    // What this install makes besides the entry, for uninstall to take away again.
    const existed = existingDepth(text, config.path.slice(0, -1), config.file);
    const file = !pathExists(config.file);
    const made = file || existed < config.path.length - 1;
    noteMade(config.file, config.path, made ? { file, existed } : undefined);
  }
  writeText(config.file, next);
  return { agent, file: config.file, changed: true, entry };
}

/**
 * `text` without Skiff's JSON entry, and without the objects install made
 * for it (as {@linkcode madeFor} knows them) once they hold nothing;
 * `null` when the file itself was made and nothing is left in it.
 */
function withoutJsonEntry(config: AgentConfig, text: string): string | null {
  const made = madeFor(config.file, config.path);
  let out = removeEntry(text, config.path, config.file);
  if (made === undefined) return out;
  for (let depth = config.path.length - 1; depth > made.existed; depth--) {
    const container = config.path.slice(0, depth);
    if (!bareObjectAt(out, container, config.file)) break;
    out = removeEntry(out, container, config.file);
  }
  return made.file && bareObjectAt(out, [], config.file) ? null : out;
}

/** Removes Skiff's entry from `agent`'s MCP servers; nothing else changes. */
export function uninstallMcp(agent: InstallAgent): InstallResult {
  const config = agentConfig(agent);
  const text = readText(config.file);
  if (currentEntry(config, text) === undefined) {
    return { agent, file: config.file, changed: false, entry: null };
  }
  const next = config.format === "toml"
    ? removeTomlEntry(text, config.path)
    : withoutJsonEntry(config, text);
  if (next === null) removeFile(config.file);
  else writeText(config.file, next);
  if (config.format === "json") noteMade(config.file, config.path, undefined);
  return { agent, file: config.file, changed: true, entry: null };
}

/** Removes a file install made and nothing else wrote to (a link, or a folder, is left). */
function removeFile(file: string): void {
  try {
    if (Deno.lstatSync(file).isFile) return Deno.removeSync(file);
    writeText(file, "{}\n");
  } catch (error) {
    throw new SkiffError(`Cannot remove ${file}: ${(error as Error).message}`, { exit: "DATA" });
  }
}
