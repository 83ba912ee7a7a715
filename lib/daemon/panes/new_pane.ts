/**
 * What `pane.new` asks for, and the records it makes: the request is
 * checked (project, names, folder) before anything changes, then turned
 * into the pane's saved record and its session's, ready for the live
 * workspace to start its process.
 *
 * @module
 */

import { basename } from "../../platform/path.ts";
import { SkiffError } from "../../errors.ts";
import type { Config, Project } from "../../config/config.ts";
import {
  checkName,
  type SavedPane,
  type SavedSession,
  type WorkspaceRecords,
} from "../records/mod.ts";
import { isDirectory } from "../../platform/files.ts";
import { clampSize, DEFAULT_SIZE } from "./pane_env.ts";

/** What `pane.new` asks for. */
export interface NewPaneRequest {
  /** The working folder (absolute). */
  cwd?: string;
  /** The project. */
  project?: string;
  /** The pane's name. */
  name?: string;
  /** The session to join or make. */
  session?: string;
  /** Columns. */
  cols?: number;
  /** Rows. */
  rows?: number;
  /** Extra environment. */
  env?: Record<string, string>;
  /** The command; the project's or the shell when empty. */
  command?: string[];
  /**
   * Marks for a new session: with them the pane always starts a new session
   * (named `session`, which must be free) that carries them from the start.
   */
  marks?: Record<string, string>;
  /** The asking command's own environment, for the variables of `CLIENT_ENV`. */
  clientEnv?: Record<string, string>;
  /** The id of the worktree made for the pane (see `PaneWorktrees`). */
  worktree?: string;
  /** A restore never resumes the pane's agent (`skiff new --no-resume`). */
  noResume?: boolean;
  /** The agent the command starts (`skiff new --agent`): see `NewPaneParams.agent`. */
  agent?: { id: string; args?: string[]; conversation?: string; hooks?: boolean };
}

/** A new pane's records, made from its request (see {@linkcode planNewPane}). */
export interface NewPanePlan {
  /** The pane's saved record, not yet in the workspace. */
  saved: SavedPane;
  /** Its session: one of the workspace's, or a new one. */
  session: SavedSession;
  /** The program and arguments its process runs. */
  argv: string[];
}

/** What {@linkcode planNewPane} needs besides the request. */
export interface PlanNewPaneOptions {
  /** The current config (projects). */
  config: Config;
  /** The shell a pane runs when neither the request nor its project names a command. */
  shell: () => string[];
}

/**
 * Checks what a new pane asks for, changing nothing: its project, its
 * name, and the session it would make. Returns the project.
 */
export function checkNewPane(
  records: WorkspaceRecords,
  request: NewPaneRequest,
  config: Config,
): Project | undefined {
  const project = request.project === undefined
    ? undefined
    : config.projects.find((p) => p.name === request.project);
  if (request.project !== undefined && !project) {
    throw new SkiffError(`No project '${request.project}'. See 'skiff project ls'`, {
      exit: "NOT_FOUND",
    });
  }
  if (request.name !== undefined) {
    checkName(request.name, "pane");
    if (records.paneNamed(request.name)) {
      throw new SkiffError(`A pane named '${request.name}' exists already`, { exit: "CONFLICT" });
    }
  }
  if (request.marks && request.session !== undefined && records.sessionNamed(request.session)) {
    throw new SkiffError(`A session named '${request.session}' exists already`, {
      exit: "CONFLICT",
    });
  }
  if (request.session !== undefined && !records.findSession(request.session)) {
    checkName(request.session, "session");
  }
  return project;
}

/**
 * Checks `request` and makes the new pane's records: its folder (which must
 * exist), command, a free name, and the session it joins or a new one (which
 * takes the next session id). Nothing joins the workspace yet.
 */
export function planNewPane(
  records: WorkspaceRecords,
  request: NewPaneRequest,
  options: PlanNewPaneOptions,
): NewPanePlan {
  const project = checkNewPane(records, request, options.config);
  const cwd = request.cwd ?? project?.root ?? Deno.env.get("HOME") ?? "/";
  if (!isDirectory(cwd)) {
    throw new SkiffError(`Folder '${cwd}' does not exist`, { exit: "USAGE" });
  }
  const argv = request.command?.length ? request.command : project?.command ?? options.shell();
  const name = request.name ?? records.uniquePaneName(basename(argv[0]));
  let session = request.session === undefined || request.marks
    ? undefined
    : records.findSession(request.session);
  if (!session) {
    const sessionName = request.session ?? records.uniqueSessionName(name);
    checkName(sessionName, "session");
    session = records.newSession({
      name: sessionName,
      project: project?.name,
      marks: { ...request.marks },
    });
  }
  const size = clampSize(request.cols ?? DEFAULT_SIZE.cols, request.rows ?? DEFAULT_SIZE.rows);
  const saved: SavedPane = {
    id: records.nextPaneId,
    name,
    session: session.id,
    project: project?.name ?? session.project,
    cwd,
    command: argv,
    env: request.env ?? {},
    ...(request.clientEnv ? { client_env: request.clientEnv } : {}),
    cols: size.cols,
    rows: size.rows,
    created: new Date().toISOString(),
    generation: records.nextGeneration(),
    ...(request.worktree ? { worktree: request.worktree } : {}),
    ...(request.noResume ? { no_resume: true } : {}),
    ...(request.agent
      ? {
        agent_launch: {
          agent: request.agent.id,
          args: request.agent.args ?? [],
          ...(request.agent.hooks ? { hooks: true } : {}),
        },
      }
      : {}),
  };
  return { saved, session, argv };
}
