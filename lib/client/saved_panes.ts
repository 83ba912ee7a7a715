/**
 * The panes skiffd saved, read from its workspace file without starting it:
 * a command about a pane the file does not hold can say so at once, where
 * starting skiffd (and the app) would only find no such pane either.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { workspaceFile } from "../config/paths.ts";

/** What a saved pane is known by. */
interface SavedName {
  id: string;
  name: string;
  project?: string;
}

/**
 * The saved panes of the skiffd on `socket`: `[]` when it saved none (no
 * file), `undefined` when the file cannot be read (skiffd, once started,
 * says why and sets it aside).
 */
export function savedPanes(socket: string): SavedName[] | undefined {
  let text: string;
  try {
    text = Deno.readTextFileSync(workspaceFile(socket));
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? [] : undefined;
  }
  try {
    const panes = (JSON.parse(text) as { panes?: unknown }).panes;
    if (!Array.isArray(panes)) return undefined;
    return panes.filter((p): p is SavedName =>
      typeof p === "object" && p !== null && typeof p.id === "string" &&
      typeof p.name === "string"
    );
  } catch {
    return undefined;
  }
}

/** Whether `ref` (an id, a name or `project/name`) names one of `panes`, as skiffd reads it. */
function names(ref: string, panes: readonly SavedName[]): boolean {
  if (/^p\d+$/.test(ref)) return panes.some((p) => p.id === ref);
  if (ref.includes("/")) {
    const [project, name] = ref.split("/", 2);
    return panes.some((p) => p.name === name && p.project === project);
  }
  return panes.some((p) => p.name === ref);
}

/**
 * Throws `NOT_FOUND` when no skiffd runs on `socket` and its saved workspace
 * holds no pane `ref`: starting skiffd would not bring one.
 */
export function refuseUnsavedPane(socket: string, ref: string): void {
  const panes = savedPanes(socket);
  if (panes === undefined || names(ref, panes)) return;
  const message = panes.length === 0
    ? `No pane '${ref}': there are no panes (skiffd is not running). See 'skiff new'`
    : `No pane '${ref}' (skiffd is not running; it saved ${panes.length} pane${
      panes.length === 1 ? "" : "s"
    }). See 'skiff ls'`;
  throw new SkiffError(message, { exit: "NOT_FOUND", details: { pane: ref } });
}
