/**
 * The pane methods of the protocol: make, list, read, type into, rename,
 * resize, kill and attach panes, and the {@linkcode PaneInfo} they return.
 *
 * @module
 */

import type { ForegroundProcess } from "../platform/proc.ts";
import type { DiffStat, NewWorktreeParams, PaneWorktree } from "./worktrees.ts";

export type { ForegroundProcess };

export { MAX_PANE_SIZE, MIN_PANE_SIZE } from "./pane_size.ts";

/** The states a pane can be in. */
export type PaneState = "starting" | "working" | "idle" | "waiting" | "exited" | "shell";

/**
 * Why a pane is unread. The first four are news for the Skiff agent (the
 * watcher tells it); `waiting` and `bell` are for the person (a desktop
 * notification).
 */
export type UnreadReason = "turn-end" | "idle-no-turn" | "exit" | "agent-exit" | "waiting" | "bell";

/** Every unread reason, in the order above. */
export const UNREAD_REASONS: readonly UnreadReason[] = [
  "turn-end",
  "idle-no-turn",
  "exit",
  "agent-exit",
  "waiting",
  "bell",
];

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
  status: "running" | "exited";
  /** The known agent in front, or null. */
  agent: string | null;
  /** `starting`, `working`, `idle`, `waiting`, `exited`, or `shell` (no known agent in front). */
  state: PaneState;
  /** When the pane's state last changed (ISO 8601): since its start, the last change, or its exit. */
  state_since: string;
  /** Whether a turn end, an idle after a prompt, a wait, a bell or an exit has not been marked seen. */
  unread: boolean;
  /** Why it is unread: every reason since it was last marked seen, oldest first; empty when read. */
  unread_reasons: UnreadReason[];
  /**
   * How many inputs a person has made in the pane (an attached terminal or
   * the app). `pane.send` with `since_inputs` refuses when it moved past a
   * count read earlier.
   */
  person_inputs: number;
  /** The marks of the pane's session. */
  session_marks: Record<string, string>;
  /** The exit code, once exited. */
  exit_code: number | null;
  /** The ending signal, once exited by one. */
  exit_signal: number | null;
  /** How many terminals are attached. */
  attached: number;
  /** When the pane was made (ISO 8601). */
  created: string;
  /**
   * When a person last used the pane (ISO 8601): a terminal attached to it
   * or typed into it (`skiff attach`, the app). Null when nobody has since it
   * was made. `skiff attach` with no pane picks the latest.
   */
  used: string | null;
  /**
   * Set when skiffd restored the pane after a restart or a crash and Skiff
   * resumes (or resumed) the conversation of the agent that ran in it: that
   * agent's id, from the moment the restore decides to resume it (its resume
   * line goes in once the new shell shows its prompt; `resume` says when).
   * Absent or null: the restored pane is a new shell.
   */
  resumed?: string | null;
  /**
   * The conversation of the agent in the pane, as the agent's own hooks
   * named it (its id follows `/clear` and the like), kept through the
   * agent's exit and through restores; null when none is known.
   */
  conversation?: PaneConversation | null;
  /** What the last restore did about the pane's agent; null when it restored no agent. */
  resume?: PaneResume | null;
  /** Whether the pane was made with `--no-resume`: a restore never resumes its agent. */
  no_resume?: boolean;
  /** The git worktree Skiff made for the pane (`skiff new --worktree`), or null. */
  worktree: PaneWorktree | null;
  /**
   * Its worktree's changes against the base, as last counted (after each
   * turn end, and on demand); null without a worktree or before a count.
   */
  diff: DiffStat | null;
}

/** An agent's conversation in a pane, as Skiff knows it. */
export interface PaneConversation {
  /** The agent (its profile id, such as `claude`). */
  agent: string;
  /** The agent's own id for the conversation. */
  id: string;
  /** The folder the agent ran in: it resumes there. */
  cwd: string;
  /** Where the agent keeps it, when a hook said (a transcript file), or null. */
  record: string | null;
  /** Whether the agent ran in the pane when skiffd last knew: only such an agent is resumed. */
  live: boolean;
  /** When a hook last named it (ISO 8601). */
  learned: string;
  /** What named it: a hook event, `start` (Skiff chose the id) or `resume`. */
  source: string;
}

/** What a restore did about the agent that ran in a pane. */
export interface PaneResume {
  /**
   * `waiting`: the resume line goes in once the new shell shows its prompt;
   * `typed`: it went in; `skipped`: the pane stays a shell (see `why`);
   * `failed`: typing it was refused (see `why`).
   */
  state: "waiting" | "typed" | "skipped" | "failed";
  /** The agent. */
  agent: string;
  /** The conversation's id. */
  conversation: string;
  /** The line typed, or to be typed; null when skipped. */
  line: string | null;
  /** Why it was skipped or failed; null otherwise. */
  why: string | null;
  /** When the restore decided (ISO 8601). */
  at: string;
}

/** The params of `pane.new`. */
export interface NewPaneParams {
  /** The working folder (absolute). Defaults to the project's root, else the home folder. */
  cwd?: string;
  /** The project. */
  project?: string;
  /** The pane's name; made from the command when absent. */
  name?: string;
  /** The session to join, or to make under that name. */
  session?: string;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** The command; the project's or the shell when empty. */
  command?: string[];
  /** Columns (at least {@linkcode MIN_PANE_SIZE}). */
  cols?: number;
  /** Rows (at least {@linkcode MIN_PANE_SIZE}). */
  rows?: number;
  /**
   * The environment of the command that asks, for the variables that follow
   * a person from terminal to terminal (see {@linkcode CLIENT_ENV}): present
   * ones are set in the pane, absent ones removed, as tmux's
   * update-environment does.
   */
  client_env?: Record<string, string>;
  /** Make a git worktree of the project's repository and start the pane in it. */
  worktree?: NewWorktreeParams;
  /** False: a restore never resumes the pane's agent (`skiff new --no-resume`). */
  resume?: boolean;
  /**
   * The agent that `command` starts, as the client built its launch
   * (`skiff new --agent` on this host): the agent's id, the arguments given
   * after Skiff's (kept for its resume line), the id of the new
   * conversation when Skiff chose one, and whether Skiff's hooks are wired
   * into it (an agent whose start ends with a hook is followed by it).
   */
  launched?: { agent: string; args?: string[]; conversation?: string; hooks?: boolean };
  /**
   * Start this agent, with Skiff's hooks wired in by skiffd itself (its own
   * `skiff hook`, its own config's agents): how `skiff new --host H --agent
   * ID` starts an agent on another host. `command` then holds the agent's
   * extra arguments.
   */
  agent?: { id: string; continue?: boolean };
  /**
   * A folder: with no `project` and no `session`, the pane (and its
   * worktree) is the project's whose root holds it (the deepest), if any.
   * `skiff new` sends the folder it was run in.
   */
  project_at?: string;
}

/** What `pane.new` returns: the pane, and whether it went into an existing worktree. */
export interface NewPaneResult extends PaneInfo {
  /**
   * True when `worktree` named a worktree Skiff made that no running pane
   * held, and the pane was opened in it (nothing was made); absent otherwise.
   */
  worktree_reopened?: boolean;
}

/** The variables a pane takes from the command that starts it, not from skiffd's own start. */
export const CLIENT_ENV = [
  "PATH",
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "XAUTHORITY",
  "DBUS_SESSION_BUS_ADDRESS",
  "SSH_AUTH_SOCK",
  "SSH_AGENT_PID",
  "SSH_CONNECTION",
  "SSH_ASKPASS",
  "KRB5CCNAME",
  "WINDOWID",
] as const;

/** The params of `pane.list`. */
export interface ListParams {
  /** Only panes whose session has this mark (with this value, when given). */
  mark?: { key: string; value?: string };
}

/** Names one pane: its id, its name, or `project/name`. */
export interface PaneRef {
  /** The pane. */
  pane: string;
}

/** The params of `pane.capture`. */
export interface CaptureParams extends PaneRef {
  /** Keep colours and styles as SGR codes. */
  ansi?: boolean;
  /** How many lines of history to include. */
  scrollback?: number;
}

/** The state of a pane's screen: what a capture shows besides the text. */
export interface ScreenSnapshot {
  /** Columns. */
  cols: number;
  /** Rows. */
  rows: number;
  /** The cursor, 0-based within the visible rows. */
  cursor: { x: number; y: number; visible: boolean };
  /** The window title set by OSC 0 or 2. */
  title: string;
  /** Whether the alternate screen is active (full-screen programs). */
  alternate: boolean;
  /** Whether the program enabled bracketed paste. */
  bracketed_paste: boolean;
  /** The captured lines, scrollback first. */
  lines: string[];
}

/** What `pane.capture` returns. */
export interface CaptureResult extends ScreenSnapshot {
  /** The pane's id. */
  pane: string;
  /** The pane's name. */
  name: string;
  /** The pane's process generation. */
  generation: number;
  /** The screen as text, trailing blank lines dropped. */
  text: string;
}

/** The params of `pane.keys`. */
export interface KeysParams extends PaneRef {
  /** Key names and text, as `skiff keys` takes them. */
  keys: string[];
  /** Type every word as text. */
  literal?: boolean;
}

/** The params of `attach`. */
export interface AttachParams extends PaneRef {
  /** The attaching terminal's columns: the pane takes its size. */
  cols?: number;
  /** The attaching terminal's rows. */
  rows?: number;
  /**
   * How many lines of the pane's history the first redraw brings, so the
   * terminal can scroll back to what came before it attached (default 0).
   */
  scrollback?: number;
  /**
   * Whether the pane takes the terminal's size now (default true). A
   * terminal attaching again after a reload says false: skiffd notes its
   * size, and the pane takes it when that terminal types or changes size.
   */
  take_size?: boolean;
  /**
   * Only follow the pane's output (a preview): the pane keeps its size,
   * input frames are dropped, and the terminal counts neither as attached nor
   * as a person's input. Default false.
   */
  watch?: boolean;
}

/** The pane methods: name → params and result. */
export interface PaneMethods {
  /** Starts a pane. */
  "pane.new": { params: NewPaneParams; result: NewPaneResult };
  /** Lists every pane, or those whose session has a mark. */
  "pane.list": { params: ListParams; result: { panes: PaneInfo[] } };
  /** Describes one pane. */
  "pane.get": { params: PaneRef; result: PaneInfo };
  /** Reads a pane's screen. */
  "pane.capture": { params: CaptureParams; result: CaptureResult };
  /** Types keys with no checks. */
  "pane.keys": { params: KeysParams; result: { pane: string; bytes: number } };
  /** Renames a pane. */
  "pane.rename": { params: PaneRef & { name: string }; result: PaneInfo };
  /** Ends a pane's process and removes the pane. */
  "pane.kill": { params: PaneRef; result: PaneInfo };
  /** Resizes a pane. */
  "pane.resize": { params: PaneRef & { cols: number; rows: number }; result: PaneInfo };
  /**
   * Turns the connection into a framed byte stream attached to the pane
   * (see `frames.ts`). Call it with the `raw` option.
   */
  "attach": { params: AttachParams; result: PaneInfo };
}
