/**
 * The skiff-cli skill: the guide that tells agents how to drive Skiff.
 * Skiff keeps its own copy in `skills/skiff-cli` beside `projects.toml`, and
 * the Skiff agent's folder links to that copy.
 *
 * @module
 */

import { join } from "../platform/path.ts";
// The skill alone: the module of every asset holds the page and xterm.js as well.
import { SKIFF_CLI_SKILL } from "../assets/skiff_cli_skill.ts";
import { configDir } from "../config/paths.ts";
import { ensureDir, writeFileAtomic } from "../platform/files.ts";

/** The skill's name, and the name of its folder. */
export const SKILL_NAME = "skiff-cli";

/** The skill's main file. */
export const SKILL_FILE = "SKILL.md";

/**
 * The skill built into this Skiff (`skills/skiff-cli/SKILL.md`, embedded by
 * `deno task embed`), so a compiled binary carries it.
 */
export function builtInSkill(): string {
  return SKIFF_CLI_SKILL;
}

/** Skiff's copy of the skill: `skills/skiff-cli` in the config folder. */
export function skillCopyDir(): string {
  return join(configDir(), "skills", SKILL_NAME);
}

/**
 * Writes Skiff's copy of the skill when it is missing or differs from the
 * built-in one. Returns whether it wrote.
 */
export function installSkill(dir: string = skillCopyDir()): boolean {
  const wanted = builtInSkill();
  const file = join(dir, SKILL_FILE);
  try {
    if (Deno.readTextFileSync(file) === wanted) return false;
  } catch {
    // Missing or unreadable: write it.
  }
  ensureDir(dir);
  writeFileAtomic(file, wanted);
  return true;
}
