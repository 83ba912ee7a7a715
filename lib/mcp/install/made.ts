/**
 * What `skiff mcp install` made in an agent's JSON file besides Skiff's
 * entry: the file itself, or the objects on the entry's path that were not
 * there (`mcpServers` in a file that had none). Uninstall removes those
 * again once they hold nothing (no other entry, no comment), so such a file
 * goes back to what it was; an object the person had, even an empty one,
 * stays. The file alone cannot say which is which (an empty `"mcpServers":
 * {}` of the person's and one install made look the same), so install keeps
 * a record in Skiff's state folder. Without a record (it was lost, or
 * another Skiff installed it), nothing but Skiff's entry is removed.
 *
 * @module
 */

import { join } from "../../platform/path.ts";
import { stateDir } from "../../config/paths.ts";
import { ensureDir, writeFileAtomic } from "../../platform/files.ts";

/** What one install made around its entry. */
export interface Made {
  /** The file did not exist. */
  file: boolean;
  /**
   * How many objects of the entry's path were there already, from the top:
   * the ones below were made (for `mcpServers.skiff`, 0 means `mcpServers`
   * was made, 1 that only the entry was).
   */
  existed: number;
}

/** The record's file. */
function recordFile(): string {
  return join(stateDir(), "mcp-install.json");
}

function key(file: string, path: string[]): string {
  return `${file}#${path.join(".")}`;
}

function readAll(): Record<string, Made> {
  try {
    const data = JSON.parse(Deno.readTextFileSync(recordFile()));
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch {
    // None yet, or unreadable: nothing is known to be made.
    return {};
  }
}

function writeAll(records: Record<string, Made>): void {
  try {
    ensureDir(stateDir());
    writeFileAtomic(recordFile(), JSON.stringify(records, null, 2) + "\n");
  } catch {
    // Without the record, uninstall keeps what install made: never more than Skiff's entry goes.
  }
}

/** What install made around the entry at `path` of `file`, or undefined when not known. */
export function madeFor(file: string, path: string[]): Made | undefined {
  const made = readAll()[key(file, path)];
  if (!made || typeof made.existed !== "number" || typeof made.file !== "boolean") return undefined;
  return made;
}

/** Notes what an install that added the entry made; `undefined` forgets it (after an uninstall). */
export function noteMade(file: string, path: string[], made: Made | undefined): void {
  const records = readAll();
  const at = key(file, path);
  if (made === undefined) {
    if (!(at in records)) return;
    delete records[at];
  } else {
    records[at] = made;
  }
  writeAll(records);
}
