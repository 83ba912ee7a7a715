/**
 * Skiff's hooks for Gemini CLI and Qwen Code, through the one settings layer
 * they read from a path an environment variable names: the system settings
 * (`GEMINI_CLI_SYSTEM_SETTINGS_PATH`, `QWEN_CODE_SYSTEM_SETTINGS_PATH`).
 * Skiff writes a file of its own there and never touches the person's
 * settings.
 *
 * That layer replaces the person's own system settings file, so Skiff's file
 * is the person's system settings (read from where the agent would read
 * them) with Skiff's hooks added after their own. When the person's file
 * cannot be read as settings, nothing is wired: hiding it would change what
 * the agent does.
 *
 * Gemini CLI (0.61) reads a system settings file only when the file and
 * every folder above it belong to root and are not writable by group or
 * others; otherwise it skips the file with a warning on screen. Skiff wires
 * Gemini only where its file passes that check (Skiff running as root, with
 * its state folder under root-owned folders); elsewhere Gemini is followed
 * by its screen and the id Skiff gave its session. Qwen Code (0.15) has no
 * such check, but uses a system layer's hooks only while the person's own
 * user settings hold none.
 *
 * @module
 */

import { dirname, join } from "../platform/path.ts";

/** The two agents that read a system settings layer. */
export type SystemSettingsAgent = "gemini" | "qwen";

const LAYERS: Record<
  SystemSettingsAgent,
  { settings: string; defaults: string; linux: string; mac: string }
> = {
  gemini: {
    settings: "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
    defaults: "GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
    linux: "/etc/gemini-cli/settings.json",
    mac: "/Library/Application Support/GeminiCli/settings.json",
  },
  qwen: {
    settings: "QWEN_CODE_SYSTEM_SETTINGS_PATH",
    defaults: "QWEN_CODE_SYSTEM_DEFAULTS_PATH",
    linux: "/etc/qwen-code/settings.json",
    mac: "/Library/Application Support/QwenCode/settings.json",
  },
};

/**
 * Removes `//` and `/* … *\/` comments outside strings, as the agents do
 * before they parse a settings file.
 */
export function stripJsonComments(text: string): string {
  let out = "";
  let i = 0;
  let inString = false;
  while (i < text.length) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === "\\") {
        out += text[i + 1] ?? "";
        i += 2;
        continue;
      }
      if (c === '"') inString = false;
      i++;
    } else if (c === '"') {
      inString = true;
      out += c;
      i++;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** What reading the person's own system settings gave. */
export type PersonSettings =
  | { ok: true; settings: Record<string, unknown>; path: string }
  | { ok: false; path: string; why: string };

/**
 * The person's own system settings for `agent`, from where the agent reads
 * them in `env` (an empty object when there is no file).
 */
export function personSystemSettings(
  agent: SystemSettingsAgent,
  env: Record<string, string | undefined>,
): PersonSettings {
  const layer = LAYERS[agent];
  const path = env[layer.settings] || (Deno.build.os === "darwin" ? layer.mac : layer.linux);
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { ok: true, settings: {}, path };
    return { ok: false, path, why: `cannot read ${path}: ${(error as Error).message}` };
  }
  try {
    const value = JSON.parse(stripJsonComments(text));
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { ok: false, path, why: `${path} is not a settings object` };
    }
    return { ok: true, settings: value as Record<string, unknown>, path };
  } catch (error) {
    return { ok: false, path, why: `${path} is not JSON: ${(error as Error).message}` };
  }
}

/**
 * `settings` with `hooks` added: for each event, Skiff's entries after the
 * person's own.
 */
export function withHooks(
  settings: Record<string, unknown>,
  hooks: Record<string, unknown[]>,
): Record<string, unknown> {
  const own = settings.hooks;
  const merged: Record<string, unknown> = typeof own === "object" && own !== null &&
      !Array.isArray(own)
    ? { ...own as Record<string, unknown> }
    : {};
  for (const [event, entries] of Object.entries(hooks)) {
    const theirs = merged[event];
    merged[event] = Array.isArray(theirs) ? [...theirs, ...entries] : entries;
  }
  return { ...settings, hooks: merged };
}

/**
 * Whether Gemini CLI reads a system settings file at `file` (which need not
 * exist yet; the folder does): the folder and each one above it belong to
 * root and are not writable by group or others. The file gets the same
 * check, which a file Skiff writes as root with mode 0644 passes.
 */
export function geminiAcceptsSystemFile(file: string): boolean {
  let dir = dirname(file);
  for (;;) {
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(dir);
    } catch {
      return false;
    }
    if (info.uid !== 0 || ((info.mode ?? 0o777) & 0o022) !== 0) return false;
    const up = dirname(dir);
    if (up === dir) return Deno.uid() === 0;
    dir = up;
  }
}

/** The environment that points `agent` at Skiff's settings file, keeping the person's defaults. */
export function systemSettingsEnv(
  agent: SystemSettingsAgent,
  file: string,
  person: { path: string; env: Record<string, string | undefined> },
): Record<string, string> {
  const layer = LAYERS[agent];
  // The defaults file is found beside the settings file unless named: keep the person's.
  const defaults = person.env[layer.defaults] || join(dirname(person.path), "system-defaults.json");
  return { [layer.settings]: file, [layer.defaults]: defaults };
}
