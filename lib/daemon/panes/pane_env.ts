/**
 * What a pane's program starts with: its environment, made from skiffd's
 * and the asking command's, the check that the program can start at all,
 * and the sizes a pane may have.
 *
 * @module
 */

import { delimiter, resolve } from "../../platform/path.ts";
import { SkiffError } from "../../errors.ts";
import { which } from "../../platform/shell.ts";
import { CLIENT_ENV, MAX_PANE_SIZE, MIN_PANE_SIZE } from "../../protocol/panes.ts";
import type { SavedPane } from "../records/mod.ts";

/** Default size of a pane made without one. */
export const DEFAULT_SIZE = { cols: 120, rows: 40 };

/** Environment variables that must not leak from the daemon into panes. */
const DROPPED_ENV = ["TMUX", "TMUX_PANE", "SKIFF_PANE", "SKIFF_SESSION", "STY", "WINDOW"];

/** A size no smaller than a pane takes, nor larger. */
export function clampSize(cols: number, rows: number): { cols: number; rows: number } {
  return {
    cols: Math.min(MAX_PANE_SIZE.cols, Math.max(MIN_PANE_SIZE.cols, cols)),
    rows: Math.min(MAX_PANE_SIZE.rows, Math.max(MIN_PANE_SIZE.rows, rows)),
  };
}

/** Where a pane's environment points. */
export interface PaneEnvOptions {
  /** The socket path, given to panes as `SKIFF_SOCKET`. */
  socket: string;
  /** A folder put first on the PATH (it holds the `skiff` script). */
  binDir?: string;
}

/** How long a copy of skiffd's own environment is used before it is read again. */
const OWN_ENV_MS = 1000;
let ownEnv: { at: number; env: Record<string, string> } | undefined;

/**
 * skiffd's environment without what must not leak into panes. Reading it is
 * a tenth of a millisecond, twice for each pane a restore starts, so a copy
 * read within the last second serves.
 */
function daemonEnv(): Record<string, string> {
  const now = performance.now();
  if (!ownEnv || now - ownEnv.at > OWN_ENV_MS) {
    const env = Deno.env.toObject();
    for (const key of DROPPED_ENV) delete env[key];
    ownEnv = { at: now, env };
  }
  return { ...ownEnv.env };
}

/** The environment of `saved`'s program. */
export function paneEnv(saved: SavedPane, options: PaneEnvOptions): Record<string, string> {
  const env = daemonEnv();
  // The variables that follow the person come from the command that started the pane.
  if (saved.client_env) {
    for (const key of CLIENT_ENV) {
      if (saved.client_env[key] !== undefined) env[key] = saved.client_env[key];
      else delete env[key];
    }
  }
  const full: Record<string, string> = {
    ...env,
    TERM: "xterm-256color",
    COLORTERM: "truecolor",
    ...saved.env,
    SKIFF_PANE: saved.id,
    SKIFF_SESSION: saved.session,
    SKIFF_SOCKET: options.socket,
  };
  const bin = options.binDir;
  if (bin) full.PATH = full.PATH ? `${bin}${delimiter}${full.PATH}` : bin;
  return full;
}

/** Throws exit `NOT_FOUND` when `program` cannot be found or run with `env`'s PATH from `cwd`. */
export function checkProgram(program: string, env: Record<string, string>, cwd: string): void {
  const path = program.includes("/") ? resolve(cwd, program) : program;
  if (which(path, env.PATH ?? "")) return;
  const where = program.includes("/") ? "does not exist or cannot be run" : "is not on the PATH";
  throw new SkiffError(`Cannot start '${program}': it ${where}; no pane was made`, {
    exit: "NOT_FOUND",
    details: { program },
  });
}
