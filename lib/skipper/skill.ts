/**
 * The skiff-cli skill: the guide that tells agents how to drive Skiff.
 * Skiff keeps its own copy in `skills/skiff-cli` beside `projects.toml`, and
 * the Skiff agent's folder links to that copy.
 *
 * @module
 */

import { join } from "node:path";
import { configDir } from "../config/paths.ts";
import { ensureDir, writeFileAtomic } from "../platform/files.ts";

/** The skill's name, and the name of its folder. */
export const SKILL_NAME = "skiff-cli";

/** The skill's main file. */
export const SKILL_FILE = "SKILL.md";

/**
 * The skill built into this Skiff. For now it is read from the source tree
 * beside this module; a compiled binary will carry it embedded (the one
 * place to change is here).
 */
export function builtInSkill(): string {
  const url = new URL(`../../skills/${SKILL_NAME}/${SKILL_FILE}`, import.meta.url);
  return Deno.readTextFileSync(url);
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
