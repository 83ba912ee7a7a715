/**
 * What the keys ask of the dashboard ({@linkcode DashActions}), and the few
 * helpers every key handler shares to say what happened on the status row.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";
import type { LandResult } from "../../protocol/land.ts";
import type { PaneInfo } from "../../protocol/panes.ts";
import type { ListedPane } from "../../protocol/workspace.ts";
import type { MethodName, ParamsOf, ResultOf } from "../../protocol/methods.ts";
import type { DashState, Prompt } from "./state.ts";

/** What the keys ask of the dashboard. */
export interface DashActions {
  /** The state. */
  readonly state: DashState;
  /** Asks skiffd. */
  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  /** Opens a pane full screen until the detach key. */
  open(pane: string): Promise<void>;
  /** Shows the diff of `pane`'s worktree in the pager until it quits (`d`). */
  showDiff(pane: ListedPane): Promise<void>;
  /**
   * Lands `pane`'s worktree as `skiff land PANE` does (`landWorktree`), or
   * with `dryRun` says what it would do; `progress` hears its slow steps.
   */
  land(
    pane: string,
    options: { dryRun: boolean; progress?: (line: string) => void },
  ): Promise<LandResult>;
  /** Draws a frame soon: something shown changed outside a key's handling. */
  redraw(): void;
  /** Opens the Skiff agent (starting it when needed) full screen. */
  openAgent(): Promise<void>;
  /** Makes a pane: project, agent and name as typed (empty: none). */
  newPane(answers: Record<string, string>): Promise<PaneInfo>;
  /** Reads the ledger again. */
  readLedger(): void;
  /** Reads a result file for the result view. */
  readResult(path: string): Promise<string>;
  /** Lists the panes again; resolves once the list is read. */
  relist(): Promise<void>;
  /** Ends the dashboard. */
  quit(): void;
  /** The project names and agent ids, for the new-pane prompts. */
  choices(): { projects: string[]; agents: string[] };
}

/** Shows `text` in the status row. */
export function say(state: DashState, text: string, tone: "info" | "error" = "info"): void {
  state.status = { text, tone };
}

/** A pane as the status row names it: `name (id)`. */
export function label(pane: ListedPane): string {
  return `${pane.name} (${pane.id})`;
}

/** What went wrong, in one line. */
export function failure(error: unknown): string {
  return error instanceof SkiffError || error instanceof Error ? error.message : String(error);
}

/** Runs `work`, then says what it did, or why it failed. */
export async function attempt(
  actions: DashActions,
  work: () => Promise<string>,
): Promise<void> {
  try {
    say(actions.state, await work());
  } catch (error) {
    say(actions.state, failure(error), "error");
  }
}

/** Opens `prompt` on the status row. */
export function startPrompt(state: DashState, prompt: Prompt): void {
  state.prompt = prompt;
  state.status = null;
}
