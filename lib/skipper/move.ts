/**
 * `skiff skipper --move-to PATH`: give the Skiff agent a new folder.
 *
 * | the folder at PATH          | what happens                                              |
 * |-----------------------------|-----------------------------------------------------------|
 * | new or empty                | the current folder is copied into it and checked (or, with |
 * |                             | no current folder, it is set up with a new ledger)        |
 * | a Skiff folder              | Skiff switches to it as it is: no copy, no merge          |
 * | anything else               | refused, with the reason                                  |
 *
 * The Skiff agent's session ends first. The old folder keeps every file and
 * gets `MOVED.md`. If anything fails before `projects.toml` is written, the
 * config and the old folder stay as they were, and a copy made for the move
 * is taken away again.
 *
 * @module
 */

import { basename, dirname, join, resolve } from "../platform/path.ts";
import { tryConnect } from "../client/connect.ts";
import { type Config, loadConfig } from "../config/config.ts";
import { isFolderSetting, resolveFolderSetting } from "../config/tables.ts";
import { editConfig } from "../config/edit.ts";
import { projectsFile } from "../config/paths.ts";
import { setTableKeys } from "../config/toml_edit.ts";
import { SkiffError } from "../errors.ts";
import { checkCopy, copyFolder, type CopyReport } from "./copy.ts";
import {
  canonical,
  type FolderKind,
  folderKind,
  isSkiffKind,
  kindRefusal,
  placeRefusal,
} from "./folder.ts";
import { endSkiffAgentSession, findSkiffAgentSession } from "./session.ts";
import { setUpFolder } from "./setup.ts";
import { skillCopyDir } from "./skill.ts";

/**
 * A test switch: when this environment variable is `before-config`, a move
 * fails just before it writes `projects.toml`, after the copy is in place.
 * Tests use it to prove that such a failure changes nothing.
 */
export const MOVE_FAULT_ENV = "SKIFF_FAULT_MOVE";

/** The note left in the old folder. */
export const MOVED_FILE = "MOVED.md";

/** What a move does with the new folder. */
export type MoveAction = "copy" | "new" | "switch" | "none";

/** What a move will do, or did. */
export interface MovePlan {
  /** The current folder, or null when there is no home folder for it. */
  from: string | null;
  /** What the current folder holds. */
  fromKind: FolderKind | null;
  /** The new folder. */
  to: string;
  /** What the new folder holds. */
  toKind: FolderKind;
  /** The value written to `[skiff_agent] folder`. */
  setting: string;
  /**
   * `copy` the current folder into the new one, set the new one up with a
   * `new` ledger, `switch` to a Skiff folder as it is, or `none`: it is the
   * current folder already.
   */
  action: MoveAction;
  /** Whether the old folder gets `MOVED.md`. */
  notesOld: boolean;
}

/** What a move did. */
export interface MoveOutcome extends MovePlan {
  /** Whether this was a dry run (nothing changed). */
  dryRun: boolean;
  /** The panes of the Skiff agent's session that were (or would be) ended. */
  ended: string[];
  /** What the copy held, for `copy`. */
  copied: CopyReport | null;
}

function refuse(path: string, reason: string): SkiffError {
  return new SkiffError(`Cannot move the Skiff agent to ${path}: ${reason}`, {
    exit: "USAGE",
    details: { folder: path },
  });
}

/** Works out what moving to `target` would do, refusing a folder that cannot be used. */
export function planMove(target: string, config: Config, cwd: string = Deno.cwd()): MovePlan {
  let to: string;
  let setting: string;
  if (isFolderSetting(target)) {
    const path = resolveFolderSetting(target);
    if (path === null) throw refuse(target, "HOME is not set, so ~ has no place");
    to = path;
    setting = target;
  } else {
    to = resolve(cwd, target);
    setting = to;
  }
  const from = config.skiffAgent.folder;
  const fromKind = from === null ? null : folderKind(from);
  const toKind = folderKind(to);
  const plan = { from, fromKind, to, toKind, setting, notesOld: false };
  if (from !== null && canonical(from) === canonical(to)) return { ...plan, action: "none" };
  const place = placeRefusal(to, config) ?? kindRefusal(toKind);
  if (place) throw refuse(to, place);
  if (from !== null) {
    const [a, b] = [canonical(from), canonical(to)];
    if (b.startsWith(a + "/")) throw refuse(to, `it is inside the current folder (${from})`);
    if (a.startsWith(b + "/")) throw refuse(to, `it holds the current folder (${from})`);
  }
  const fromIsSkiff = fromKind !== null && isSkiffKind(fromKind);
  const action: MoveAction = isSkiffKind(toKind) ? "switch" : fromIsSkiff ? "copy" : "new";
  return { ...plan, action, notesOld: fromIsSkiff };
}

/** Options for {@linkcode moveSkiffAgent}. */
export interface MoveOptions {
  /** Print what would happen and change nothing. */
  dryRun?: boolean;
  /** The folder a relative PATH is taken from. */
  cwd?: string;
}

/** Moves the Skiff agent to `target` (see the module's table). */
export async function moveSkiffAgent(
  target: string,
  options: MoveOptions = {},
): Promise<MoveOutcome> {
  const config = loadConfig();
  const plan = planMove(target, config, options.cwd);
  const outcome: MoveOutcome = { ...plan, dryRun: !!options.dryRun, ended: [], copied: null };
  if (plan.action === "none") return outcome;
  const client = await tryConnect();
  try {
    if (client) {
      if (options.dryRun) {
        const found = await findSkiffAgentSession(client);
        outcome.ended = found ? found.panes.map((p) => p.id) : [];
      } else {
        // The agent works in the old folder: it stops before the folder changes.
        outcome.ended = await endSkiffAgentSession(client);
      }
    }
  } finally {
    client?.close();
  }
  if (options.dryRun) return outcome;

  const name = config.skiffAgent.name;
  let undo = () => {};
  if (plan.action === "copy") {
    const staged = stageCopy(plan.from!, plan.to, plan.toKind, name);
    outcome.copied = staged.report;
    undo = staged.undo;
  } else if (plan.action === "new") {
    setUpFolder(plan.to, { name, skillDir: skillCopyDir() });
  }
  try {
    if (Deno.env.get(MOVE_FAULT_ENV) === "before-config") {
      throw new SkiffError(`Failed on purpose before writing projects.toml (${MOVE_FAULT_ENV})`, {
        exit: "ERROR",
      });
    }
    await editConfig(
      (text) => setTableKeys(text, ["skiff_agent"], { folder: plan.setting }),
      projectsFile(),
    );
  } catch (error) {
    undo();
    throw error;
  }
  if (plan.notesOld) noteMove(plan.from!, plan.to);
  return outcome;
}

/**
 * Copies `from` into a hidden folder beside `to`, checks the copy, completes
 * its setup, and renames it into place. Returns how to take it away again.
 */
function stageCopy(
  from: string,
  to: string,
  toKind: FolderKind,
  name: string,
): { report: CopyReport; undo: () => void } {
  const parent = dirname(to);
  Deno.mkdirSync(parent, { recursive: true });
  const stage = join(parent, `.${basename(to)}.skiff-move-${Deno.pid}`);
  Deno.mkdirSync(stage);
  const discard = () => Deno.removeSync(stage, { recursive: true });
  let report: CopyReport;
  try {
    report = copyFolder(from, stage);
    checkCopy(from, stage);
    // An older Skiff's folder gets the marker and any missing part here.
    setUpFolder(stage, { name, skillDir: skillCopyDir() });
    // An empty folder at `to` is replaced whole: nothing of it is lost.
    Deno.renameSync(stage, to);
  } catch (error) {
    discard();
    throw error instanceof SkiffError ? error : new SkiffError(
      `Could not copy ${from} to ${to}: ${(error as Error).message}`,
      { exit: "DATA", cause: error },
    );
  }
  const undo = () => {
    Deno.renameSync(to, stage);
    if (toKind === "empty") Deno.mkdirSync(to);
    discard();
  };
  return { report, undo };
}

/** Leaves `MOVED.md` in the old folder (or adds a line to it). */
function noteMove(from: string, to: string): void {
  const file = join(from, MOVED_FILE);
  const line = `- ${new Date().toISOString()}: the Skiff agent moved to ${to}\n`;
  let text: string;
  try {
    text = Deno.readTextFileSync(file) + line;
  } catch {
    text = [
      "# The Skiff agent moved",
      "",
      "Skiff keeps this folder as it was: nothing here was deleted. The agent now works in",
      "the folder below, with a copy of this one (or as it was, when it was a Skiff folder",
      "already). You may remove this folder once you no longer need it.",
      "",
      line,
    ].join("\n");
  }
  Deno.writeTextFileSync(file, text);
}
