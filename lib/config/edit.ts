/**
 * Changing `projects.toml` on behalf of a command: add and remove projects,
 * set keys. Each change holds a lock, keeps the user's comments and layout,
 * checks the result, and replaces the file atomically.
 *
 * @module
 */

import { dirname } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";
import { ensureDir, withFileLock, writeFileAtomic } from "../platform/files.ts";
import { type Config, parseConfig } from "./config.ts";
import { projectsFile } from "./paths.ts";

/**
 * Reads the config text, applies `change`, checks that the new text is a valid
 * config, and writes it. A config that is already broken is left untouched.
 */
export async function editConfig(
  change: (text: string, config: Config) => string,
  file = projectsFile(),
): Promise<Config> {
  ensureDir(dirname(file));
  return await withFileLock(`${file}.lock`, () => {
    let text = "";
    let exists = true;
    try {
      text = Deno.readTextFileSync(file);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) {
        throw new SkiffError(`Cannot read ${file}: ${(error as Error).message}`, { exit: "DATA" });
      }
      exists = false;
    }
    const before = parseConfig(text, file, exists);
    const next = change(text, before);
    const after = parseConfig(next, file);
    if (next !== text) writeFileAtomic(file, next);
    return after;
  });
}
