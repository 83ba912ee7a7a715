/**
 * `skiff mcp install` and `uninstall`: Skiff's entry in an agent's own MCP
 * configuration, edited in place (every other entry and comment stays), so
 * the agent starts `skiff mcp` by itself. The entry runs the `skiff` that
 * installs it, by absolute path (an agent finds it without PATH), with the
 * variables that say where Skiff's files are when they are set, so the
 * server reaches the same skiffd as the shell that installed it. Installing
 * again changes nothing when the entry is already so; uninstalling removes
 * only Skiff's entry.
 *
 * @module
 */

import { parse as parseToml } from "smol-toml";
import { SkiffError } from "../../errors.ts";
import { dirname } from "../../platform/path.ts";
import { ensureDir, writeFileAtomic } from "../../platform/files.ts";
import { selfCommand } from "../../platform/spawn_self.ts";
import { hasTable, removeTable, setTableKeys } from "../../config/mod.ts";
import type { McpGate } from "../gates.ts";
import { MCP_GATES } from "../gates.ts";
import { type AgentConfig, agentConfig, type InstallAgent, type ServerCommand } from "./agents.ts";
import { type JsonValue, removeEntry, setEntry, valueAt } from "./jsonc_edit.ts";

/** The variables that say where Skiff's files and skiffd are: carried into the entry when set. */
export const PLACE_VARIABLES = [
  "SKIFF_CONFIG_DIR",
  "SKIFF_STATE_DIR",
  "SKIFF_DATA_DIR",
  "SKIFF_SOCKET",
  "SKIFF_LEDGER",
  "XDG_CONFIG_HOME",
  "XDG_STATE_HOME",
  "XDG_DATA_HOME",
  "XDG_RUNTIME_DIR",
] as const;

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
  /** Skiff's entry as it is in the file now (null after an uninstall). */
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
    ? tomlEntry("", config.path, entry)
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

/** The TOML table at `path` of `text`, read as the agent reads it (`DATA` when broken). */
function tomlTable(text: string, path: string[], file: string): unknown {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    throw new SkiffError(
      `${file}: ${
        (error as Error).message.split("\n")[0]
      }; fix it or add Skiff by hand (see 'skiff mcp install --print')`,
      { exit: "DATA", details: { file } },
    );
  }
  let node: unknown = doc;
  for (const key of path) node = (node as Record<string, unknown> | undefined)?.[key];
  return node;
}

/** `text` with Skiff's TOML table (and its env table) set to `entry`. */
function tomlEntry(text: string, path: string[], entry: Record<string, JsonValue>): string {
  const { env, ...keys } = entry;
  let out = setTableKeys(text, path, {
    ...Object.fromEntries(Object.keys(keys).map((k) => [k, null])),
    ...keys,
  } as Record<string, string | string[]>);
  const envPath = [...path, "env"];
  if (env && Object.keys(env).length > 0) {
    out = setTableKeys(out, envPath, env as Record<string, string>);
  } else if (hasTable(out, envPath)) {
    out = removeTable(out, envPath);
  }
  return out.endsWith("\n") ? out : `${out}\n`;
}

function currentEntry(config: AgentConfig, text: string): unknown {
  return config.format === "toml"
    ? tomlTable(text, config.path, config.file)
    : valueAt(text, config.path, config.file);
}

/**
 * Adds Skiff to `agent`'s MCP servers (or sets its entry), in place. A file
 * whose entry is already so is left byte for byte.
 */
export function installMcp(agent: InstallAgent, serve: ServeArgs = {}): InstallResult {
  const config = agentConfig(agent);
  const entry = config.entry(serverCommand(serve));
  const text = readText(config.file);
  if (canonical(currentEntry(config, text)) === canonical(entry)) {
    return { agent, file: config.file, changed: false, entry };
  }
  const next = config.format === "toml"
    ? tomlEntry(text, config.path, entry)
    : setEntry(text, config.path, entry, config.file);
  writeText(config.file, next);
  return { agent, file: config.file, changed: true, entry };
}

/** Removes Skiff's entry from `agent`'s MCP servers; nothing else changes. */
export function uninstallMcp(agent: InstallAgent): InstallResult {
  const config = agentConfig(agent);
  const text = readText(config.file);
  if (currentEntry(config, text) === undefined) {
    return { agent, file: config.file, changed: false, entry: null };
  }
  const next = config.format === "toml"
    ? removeTable(text, config.path)
    : removeEntry(text, config.path, config.file);
  writeText(config.file, next);
  return { agent, file: config.file, changed: true, entry: null };
}
