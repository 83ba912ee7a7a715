/**
 * Starting a pane, as `skiff new` and the `new_pane` tool do: the pane's
 * request (project, folder, worktree, size, environment), the agent's
 * launch with Skiff's hooks, and which skiffd gets it (this machine's or a
 * host's).
 *
 * @module
 */

import { resolve } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";
import { clientEnv } from "../client/env.ts";
import { type SkiffdAccess, withSkiffd } from "../hosts/resolve.ts";
import type { NewPaneParams, PaneInfo } from "../protocol/panes.ts";
import type { PaneWorktree } from "../protocol/worktrees.ts";
import { agentLaunchFor } from "../agents/launch.ts";
import { checkNewPaneScope } from "./scope.ts";

/** How long `wait-ready` waits by default, in milliseconds. */
export const DEFAULT_READY_MS = 120_000;

/** A pane's size, and the one asked for when it had to be raised to the smallest a pane takes. */
export interface NewPaneSize {
  /** Columns. */
  cols: number;
  /** Rows. */
  rows: number;
  /** The size asked for, when it was raised; else null. */
  raisedFrom?: { cols: number; rows: number } | null;
}

/** What to start, for {@linkcode newPane}. Every field may be left out. */
export interface NewPaneOptions {
  /** The command and its arguments (with `agent`: extra arguments for the agent). */
  command?: string[];
  /** The project to start it in. */
  project?: string;
  /** The pane's name (unique). */
  name?: string;
  /** The session to join or make. */
  session?: string;
  /** The folder to start in (relative to this process's folder; absolute on another host). */
  cwd?: string;
  /** The terminal's size. */
  size?: NewPaneSize;
  /** Environment variables; they win over Skiff's hook wiring. */
  env?: Record<string, string>;
  /** The agent to start, with Skiff's hooks. */
  agent?: string;
  /** With `agent`: continue its last conversation in the folder. */
  continue?: boolean;
  /** After a restart, do not resume the agent's conversation. */
  noResume?: boolean;
  /** Make a git worktree of this name and start in it. */
  worktree?: string;
  /** With `worktree`: its branch. */
  branch?: string;
  /** With `worktree`: where a new branch starts. */
  base?: string;
  /** The host to start it on (see `skiff host`). */
  host?: string;
  /** Return once the agent in the pane is idle at its input box. */
  waitReady?: boolean;
  /** With `waitReady`: how long to wait (default {@linkcode DEFAULT_READY_MS}). */
  readyMs?: number;
  /** Where connections come from (default: one for this call). */
  access?: SkiffdAccess;
  /**
   * The project the caller is limited to (`skiff mcp --project`): a folder
   * outside its root, or a session of another project, is `NOT_FOUND` as
   * if it were not there, and nothing starts.
   */
  scope?: string;
}

/** What `skiff new --json` prints. */
export interface NewPaneResult {
  /** The pane's id on its host. */
  id: string;
  /** Its name. */
  name: string;
  /** Its worktree, or null. */
  worktree: PaneWorktree | null;
  /** Its worktree's branch, or null. */
  branch: string | null;
  /** Whether the worktree existed already, and the pane opened it again (its pane was gone). */
  worktree_reopened: boolean;
  /** The whole pane. */
  pane: PaneInfo;
  /** The host it runs on, or null for this machine. */
  host: string | null;
  /** The size asked for, when it was raised to the smallest a pane takes. */
  size_raised_from: { cols: number; rows: number } | null;
  /** Why Skiff's hooks for the agent are not wired (its state is read from its screen), or null. */
  hooks_unwired: string | null;
}

/**
 * Whether a pane made with `options` belongs to the project whose folder
 * this process runs in: no project, folder or session was named, and it is
 * on this machine. skiffd finds the project with the config it runs on.
 */
export function startsFromFolder(options: NewPaneOptions): boolean {
  return options.host === undefined && options.cwd === undefined &&
    options.project === undefined && options.session === undefined;
}

/**
 * Starts a pane and returns what `skiff new --json` prints. Errors are
 * `SkiffError`s: `NOT_FOUND` (no such project, agent or base), `CONFLICT`
 * (a name, worktree or branch taken), `USAGE`, `TIMEOUT`, `NOT_RUNNING`,
 * `NO_AGENT` (waiting for ready), `UNREACHABLE` and `PROTOCOL` (a host).
 */
export async function newPane(options: NewPaneOptions = {}): Promise<NewPaneResult> {
  const params = newPaneParams(options);
  const readyMs = options.readyMs ?? DEFAULT_READY_MS;
  let reopened = false;
  const pane = await withSkiffd(options.host, async (client) => {
    if (options.scope !== undefined) {
      await checkNewPaneScope(client, params.request, options.scope, options.host === undefined);
    }
    const { worktree_reopened, ...made } = await client.call("pane.new", params.request);
    reopened = worktree_reopened ?? false;
    if (!options.waitReady) return made;
    return await client.call("pane.ready", { pane: made.id, timeout_ms: readyMs });
  }, { access: options.access });
  return {
    id: pane.id,
    name: pane.name,
    worktree: pane.worktree,
    branch: pane.worktree?.branch ?? null,
    worktree_reopened: reopened,
    pane,
    host: options.host ?? null,
    size_raised_from: options.size?.raisedFrom ?? null,
    hooks_unwired: params.unwired ?? null,
  };
}

/** The `pane.new` request for `options`, and why the agent's hooks are not wired, if they are not. */
function newPaneParams(options: NewPaneOptions): { request: NewPaneParams; unwired?: string } {
  const { cwd, project, agent, host, worktree, size } = options;
  const extra = options.command ?? [];
  let env = options.env ?? {};
  let command = extra;
  let launched: NewPaneParams["launched"];
  let unwired: string | undefined;
  // On another host, skiffd there wires the agent's hooks to its own skiff.
  if (agent !== undefined && host === undefined) {
    const launch = agentLaunchFor(agent, {
      continue: options.continue,
      chooseId: true,
      extra,
      env: { ...Deno.env.toObject(), ...env },
    });
    command = launch.command;
    // The caller's env wins over Skiff's hook wiring.
    env = { ...launch.env, ...env };
    launched = {
      agent,
      args: extra,
      conversation: launch.conversation,
      hooks: launch.unwired === undefined,
    };
    unwired = launch.unwired;
  }
  // Run in a project's folder (its root or below), a pane is that project's, as with a project
  // (and a worktree is of that project's repository). A folder here means nothing on another host.
  const fromFolder = startsFromFolder(options);
  const request: NewPaneParams = {
    project,
    ...(fromFolder ? { project_at: Deno.cwd() } : {}),
    // A pane in a worktree is named after it unless named.
    name: options.name ?? (worktree === undefined ? agent : undefined),
    session: options.session,
    env,
    command,
    // This terminal's PATH and display mean nothing on another host.
    ...(host === undefined ? { client_env: clientEnv() } : {}),
    ...(host !== undefined && agent !== undefined
      ? { agent: { id: agent, continue: options.continue } }
      : {}),
    ...(launched ? { launched } : {}),
    ...(options.noResume ? { resume: false } : {}),
    ...(size ? { cols: size.cols, rows: size.rows } : {}),
    ...(worktree === undefined
      ? {}
      : { worktree: { name: worktree, branch: options.branch, base: options.base } }),
  };
  // Without a project, a pane starts where the command was run, as in tmux; on another
  // host, in the project's root or the home folder there.
  if (cwd !== undefined) request.cwd = host === undefined ? resolve(cwd) : folderOnHost(cwd, host);
  else if (host === undefined && project === undefined && worktree === undefined) {
    request.cwd = Deno.cwd();
  }
  return { request, unwired };
}

/** A folder for a pane on `host`: a path there, so it must be absolute (nothing here resolves it). */
function folderOnHost(cwd: string, host: string): string {
  if (cwd.startsWith("/")) return cwd;
  throw new SkiffError(`--cwd with --host needs an absolute path on ${host}: '${cwd}' is not`, {
    exit: "USAGE",
  });
}
