/**
 * The description of a pane that `skiff ls`, `pane.get` and `attach` return.
 *
 * @module
 */

import type { PaneState } from "../agents/profile.ts";
import type { AgentTracker } from "../agents/tracker.ts";
import type { ForegroundProcess } from "../platform/proc.ts";
import type { Pane } from "./pane.ts";
import type { SavedSession } from "./workspace.ts";

/** A pane, as clients see it. The shape is part of `skiff ls --json`. */
export interface PaneInfo {
  /** Never-reused id, such as `p3`. */
  id: string;
  /** Unique name. */
  name: string;
  /** Project name, or null. */
  project: string | null;
  /** Session id. */
  session: string;
  /** Session name. */
  session_name: string;
  /** The process id, or null once it exited. */
  pid: number | null;
  /** Start time of the pane's process in ms since the epoch: changes when the process is replaced. */
  generation: number;
  /** The command the pane was started with. */
  command: string[];
  /** The process in front of the terminal, when known. */
  foreground: ForegroundProcess | null;
  /** The working folder. */
  cwd: string;
  /** Columns. */
  cols: number;
  /** Rows. */
  rows: number;
  /** The window title. */
  title: string;
  /** `running` or `exited`. */
  status: string;
  /** The known agent in front, or null. */
  agent: string | null;
  /** `starting`, `working`, `idle`, `waiting`, `exited`, or `shell` (no known agent in front). */
  state: PaneState;
  /** Whether a turn end, an idle after a prompt, a wait, a bell or an exit has not been marked seen. */
  unread: boolean;
  /** The exit code, once exited. */
  exit_code: number | null;
  /** The ending signal, once exited by one. */
  exit_signal: number | null;
  /** How many terminals are attached. */
  attached: number;
  /** When the pane was made (ISO 8601). */
  created: string;
}

/** Builds the description of `pane`. */
export function paneInfo(
  pane: Pane,
  session: SavedSession | undefined,
  tracker?: AgentTracker,
): PaneInfo {
  const running = pane.status === "running";
  return {
    id: pane.id,
    name: pane.name,
    project: pane.saved.project ?? null,
    session: pane.saved.session,
    session_name: session?.name ?? pane.saved.session,
    pid: running ? pane.pid : null,
    generation: pane.saved.generation,
    command: pane.saved.command,
    foreground: running ? pane.foreground() ?? null : null,
    cwd: pane.saved.cwd,
    cols: pane.saved.cols,
    rows: pane.saved.rows,
    title: pane.screen.title,
    status: pane.status,
    agent: tracker?.agent?.id ?? null,
    state: pane.status === "exited" ? "exited" : tracker?.state ?? "shell",
    unread: pane.saved.unread ?? false,
    exit_code: pane.exit ? pane.exit.exitCode : null,
    exit_signal: pane.exit?.signal ? pane.exit.signal : null,
    attached: pane.attached,
    created: pane.saved.created,
  };
}
