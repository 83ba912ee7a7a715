/**
 * Which folders the Skiff agent may live in, and what a folder holds.
 *
 * An agent reads instruction files in the folders above its own, so the
 * Skiff agent's folder must not sit in or above other work (a project, a
 * Git repository, the home folder), and Skiff never writes into an agent's
 * own setup. What is already in the folder decides the rest: a new or empty
 * folder can be set up, a Skiff folder is used as it is, anything else is
 * refused.
 *
 * @module
 */

import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "../platform/path.ts";
import type { Config } from "../config/config.ts";
import { configDir, homeFolder } from "../config/paths.ts";

/** The file that marks a folder as the Skiff agent's, written by setup. */
export const MARKER_FILE = ".skiff-agent";

/** Names setup and the ledger make in the folder; an older Skiff left only these. */
const SKIFF_NAMES = new Set([
  "AGENTS.md",
  "CLAUDE.md",
  "GEMINI.md",
  ".agents",
  ".claude",
  "results",
  "ledger.db",
  "ledger.db-wal",
  "ledger.db-shm",
  "ledger.md",
  "MOVED.md",
]);

/**
 * What a folder holds:
 * - `new`: nothing is there yet;
 * - `empty`: an empty folder;
 * - `skiff`: a Skiff folder (it has the marker);
 * - `older`: no marker, but a ledger and nothing else than what Skiff makes
 *   (a folder an older Skiff made); it counts as a Skiff folder;
 * - `other`: a folder with other files;
 * - `file`: not a folder at all.
 */
export type FolderKind = "new" | "empty" | "skiff" | "older" | "other" | "file";

/** Whether a folder of this kind is the Skiff agent's already. */
export function isSkiffKind(kind: FolderKind): boolean {
  return kind === "skiff" || kind === "older";
}

/** Reads what the folder at `path` holds. */
export function folderKind(path: string): FolderKind {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "new";
    throw error;
  }
  if (!info.isDirectory) return "file";
  const names = [...Deno.readDirSync(path)].map((e) => e.name);
  if (names.length === 0) return "empty";
  if (names.includes(MARKER_FILE)) return "skiff";
  const ledger = names.some((n) => n === "ledger.db" || n === "ledger.md");
  const ours = names.every((n) => SKIFF_NAMES.has(n) || /^ledger\.md\.bak(\.\d+)?$/.test(n));
  return ledger && ours ? "older" : "other";
}

/** What the folder at a path can be used for. */
export interface FolderCheck {
  /** The absolute path. */
  path: string;
  /** What it holds. */
  kind: FolderKind;
  /** Whether the Skiff agent may live there. */
  usable: boolean;
  /** Why not, as one line (`it is your home folder`), when it is not usable. */
  reason?: string;
}

/** The path with links resolved, also when its last parts do not exist yet. */
export function canonical(path: string): string {
  const abs = resolve(path);
  const rest: string[] = [];
  let at = abs;
  for (;;) {
    try {
      return join(Deno.realPathSync(at), ...rest.reverse());
    } catch {
      const parent = dirname(at);
      if (parent === at) return abs;
      rest.push(basename(at));
      at = parent;
    }
  }
}

/** Whether `inner` is `outer` or lies inside it (both canonical). */
function within(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Where to look, for {@linkcode placeRefusal}; each defaults to this process's own. */
export interface PlaceOptions {
  /** The home folder (`null`: there is none). */
  home?: string | null;
  /** Skiff's config folder. */
  configDir?: string;
  /** Reads an environment variable. */
  env?: (name: string) => string | undefined;
}

/** The agents' own folders under the home folder, and environment variables that move them. */
function agentHomes(
  home: string | undefined,
  readEnv: (name: string) => string | undefined,
): { path: string; label: string }[] {
  const homes: { path: string; label: string }[] = [];
  const add = (path: string | undefined, label: string) => {
    if (path) homes.push({ path: canonical(path), label });
  };
  if (home) {
    add(join(home, ".claude"), "Claude Code's own folder");
    add(join(home, ".codex"), "Codex's own folder");
    add(join(home, ".gemini"), "Gemini CLI's own folder");
    add(join(home, ".config", "opencode"), "opencode's own folder");
    add(join(home, ".local", "share", "opencode"), "opencode's own folder");
    add(join(home, ".grok"), "Grok's own folder");
    add(join(home, ".qwen"), "Qwen Code's own folder");
    add(join(home, ".hermes"), "Hermes's home, where its profiles live");
  }
  const env = (name: string) => readEnv(name) || undefined;
  add(env("CLAUDE_CONFIG_DIR"), "Claude Code's own folder (CLAUDE_CONFIG_DIR)");
  add(env("CODEX_HOME"), "Codex's own folder (CODEX_HOME)");
  add(env("HERMES_HOME"), "a Hermes profile (HERMES_HOME)");
  const xdg = env("XDG_CONFIG_HOME");
  if (xdg) add(join(xdg, "opencode"), "opencode's own folder");
  return homes;
}

function gitRepository(path: string): string | undefined {
  for (let at = path;;) {
    try {
      Deno.lstatSync(join(at, ".git"));
      return at;
    } catch {
      // Not here; look further up.
    }
    const parent = dirname(at);
    if (parent === at) return undefined;
    at = parent;
  }
}

/**
 * Why the Skiff agent may not live at `path` because of where it is (the
 * root, the home folder, the config folder, a project, a Git repository, an
 * agent's own folder), or `undefined` when the place is fine. What the
 * folder holds is not looked at here.
 */
export function placeRefusal(
  path: string,
  config: Config,
  options: PlaceOptions = {},
): string | undefined {
  const at = canonical(path);
  if (dirname(at) === at) return "it is the root folder";
  const homePath = options.home === undefined ? homeFolder() : options.home;
  const home = homePath ? canonical(homePath) : undefined;
  if (home && at === home) return "it is your home folder";
  if (home && within(home, at)) return `it holds your home folder (${home})`;
  const skiffConfig = canonical(options.configDir ?? configDir());
  if (within(at, skiffConfig)) return `it is in Skiff's config folder (${skiffConfig})`;
  for (const agent of agentHomes(home, options.env ?? ((name) => Deno.env.get(name)))) {
    if (within(at, agent.path)) return `it is ${agent.label} (${agent.path})`;
  }
  for (const project of config.projects) {
    const root = canonical(project.root);
    if (at === root) return `it is project '${project.name}' (${root})`;
    if (within(at, root)) return `it is in project '${project.name}' (${root})`;
    if (within(root, at)) return `it holds project '${project.name}' (${root})`;
  }
  const repo = gitRepository(at);
  if (repo) return `it is in a Git repository (${repo})`;
  return undefined;
}

/** Why a folder of this kind cannot be used, or `undefined` when it can. */
export function kindRefusal(kind: FolderKind): string | undefined {
  if (kind === "file") return "it is a file, not a folder";
  if (kind === "other") {
    return "it holds files that are not the Skiff agent's; choose a new or empty folder, or a Skiff folder";
  }
  return undefined;
}

/** Checks both where `path` is and what it holds. */
export function checkFolder(path: string, config: Config): FolderCheck {
  const abs = resolve(path);
  const kind = folderKind(abs);
  const reason = placeRefusal(abs, config) ?? kindRefusal(kind);
  return reason === undefined ? { path: abs, kind, usable: true } : {
    path: abs,
    kind,
    usable: false,
    reason,
  };
}

/** The one line that refuses a folder. */
export function refusalLine(check: FolderCheck): string {
  return `Cannot use ${check.path} as the Skiff agent's folder: ${check.reason}`;
}
