/**
 * Setting up the Skiff agent's folder. Setup writes only what is missing and
 * never changes what is there, so the person's edits stay. It refuses a
 * folder that holds other files.
 *
 * | path                      | what                                      |
 * |---------------------------|-------------------------------------------|
 * | `.skiff-agent`            | the marker: this folder is the agent's    |
 * | `AGENTS.md`               | the agent's instructions, with its name   |
 * | `CLAUDE.md`, `GEMINI.md`  | links to `AGENTS.md`                      |
 * | `.agents/skills/skiff-cli`| a link to Skiff's copy of the skill       |
 * | `.claude`                 | a link to `.agents` (Claude Code's skills) |
 * | `results/`                | result files from child sessions          |
 *
 * `ledger.db` is made on first use, by the ledger.
 *
 * @module
 */

import { join } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";
import { folderKind, kindRefusal, MARKER_FILE } from "./folder.ts";
import { agentInstructions } from "./instructions.ts";
import { SKILL_NAME } from "./skill.ts";

/** Options for {@linkcode setUpFolder}. */
export interface SetupOptions {
  /** The agent's name, written into `AGENTS.md`. */
  name: string;
  /** Skiff's copy of the skill, which `.agents/skills/skiff-cli` links to. */
  skillDir: string;
}

/** The marker's text. */
const MARKER_TEXT =
  "This folder is the Skiff agent's. Skiff's setup made it; keep this file so Skiff knows it.\n";

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Makes a link unless something is at `path`; another setup may make it at the same time. */
function link(target: string, path: string, made: string[]): void {
  if (exists(path)) return;
  try {
    Deno.symlinkSync(target, path);
    made.push(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
}

function folder(path: string, made: string[]): void {
  if (exists(path)) return;
  try {
    Deno.mkdirSync(path);
    made.push(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
}

function file(path: string, text: string, made: string[]): void {
  if (exists(path)) return;
  try {
    // createNew: a file another setup wrote a moment ago stays as it is.
    Deno.writeTextFileSync(path, text, { createNew: true });
    made.push(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
}

/**
 * Sets up the Skiff agent's folder at `path` (made when missing) and returns
 * the paths it wrote. Refuses (exit `USAGE`) a file or a folder that holds
 * other files. Where the folder is (see `placeRefusal`) is the caller's to
 * check.
 */
export function setUpFolder(path: string, options: SetupOptions): string[] {
  const refusal = kindRefusal(folderKind(path));
  if (refusal) {
    throw new SkiffError(`Cannot use ${path} as the Skiff agent's folder: ${refusal}`, {
      exit: "USAGE",
      details: { folder: path },
    });
  }
  const made: string[] = [];
  try {
    Deno.mkdirSync(path, { recursive: true });
    // The marker goes first: a setup cut short is still a Skiff folder, and the next one completes it.
    // Written in place, not through a temporary file, so that a setup running
    // at the same time never sees a stray file in a folder that was empty.
    file(join(path, MARKER_FILE), MARKER_TEXT, made);
    file(join(path, "AGENTS.md"), agentInstructions(options.name), made);
    link("AGENTS.md", join(path, "CLAUDE.md"), made);
    link("AGENTS.md", join(path, "GEMINI.md"), made);
    folder(join(path, ".agents"), made);
    folder(join(path, ".agents", "skills"), made);
    link(options.skillDir, join(path, ".agents", "skills", SKILL_NAME), made);
    link(".agents", join(path, ".claude"), made);
    folder(join(path, "results"), made);
  } catch (error) {
    if (error instanceof SkiffError) throw error;
    throw new SkiffError(
      `Cannot set up the Skiff agent's folder ${path}: ${(error as Error).message}`,
      { exit: "DATA", details: { folder: path }, cause: error },
    );
  }
  return made;
}
