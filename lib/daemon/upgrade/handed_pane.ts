/**
 * One pane as an upgrade hands it over (see `handoff.ts`): its process and
 * terminal, its whole screen, what its agent tracker remembers, what it
 * counted, and where its saved screen stands.
 *
 * @module
 */

import type { Pane } from "../panes/mod.ts";
import { DEFLATE } from "../screens/mod.ts";
import { encodeBase64 } from "../../platform/bytes.ts";
import { SCREEN_STATE_VERSION, type ScreenState } from "../../screen/screen_state.ts";
import type { LiveWorkspace } from "../workspace/mod.ts";
import type { HandedPane } from "./handoff.ts";

/** A pane that printed this recently is taken over first (see `adopt.ts`). */
const HOT_OUTPUT_MS = 10_000;

/** What {@linkcode handedPane} puts in besides the pane's process and counts. */
export interface HandedPaneOptions {
  /** Its screen (default); without, a blank one of its size (for an upgrade's check). */
  screen?: boolean;
  /** The output that waits to be parsed, as it is (a running pane's; version 3). */
  waiting?: boolean;
}

/** `pane` as the handoff holds it. */
export function handedPane(
  pane: Pane,
  workspace: LiveWorkspace,
  options: HandedPaneOptions = {},
): HandedPane {
  const live = pane.status === "running";
  const standing = workspace.screens.standing(pane);
  const waiting = live && options.waiting ? pane.waitingOutput() : undefined;
  return {
    id: pane.id,
    pid: live ? pane.pid : null,
    fd: live ? pane.handoffFd ?? -1 : null,
    exit: live ? null : pane.exit ?? null,
    exited_at: live ? null : pane.exitedAt ?? null,
    ...(options.screen ?? true ? screenOf(pane) : { screen: blankScreen(pane) }),
    ...(waiting && waiting.length > 0 ? { waiting: encodeBase64(waiting) } : {}),
    tracker: workspace.watches.get(pane)?.tracker.save() ?? null,
    state_since: pane.stateSince,
    person_typed_at: pane.personTypedAt,
    person_inputs: pane.personInputs,
    output_bytes: pane.outputBytes,
    output_at: pane.outputAt,
    ...(pane.resume ? { resume: pane.resume } : {}),
    hot: live && (pane.attached > 0 || Date.now() - pane.outputAt < HOT_OUTPUT_MS),
    ...(standing
      ? {
        screen_save: {
          unsaved: standing.unsaved,
          history_bytes: standing.history.bytes,
          history_lines: standing.history.lines,
        },
      }
      : {}),
  };
}

/** A blank screen of the pane's size. */
function blankScreen(pane: Pane): ScreenState {
  const { cols, rows } = pane.screen;
  return { version: SCREEN_STATE_VERSION, cols, rows, history: 0, vt: "", title: "" };
}

/**
 * The pane's screen as the handoff holds it: a sleeping one with its state
 * still deflated, as it slept, and what it kept beside it; an awake one whole.
 */
function screenOf(pane: Pane): Pick<HandedPane, "screen" | "asleep"> {
  const packed = pane.screen.packedState;
  const summary = pane.screen.sleepSummary;
  if (packed && summary && packed.packer === DEFLATE) {
    const screen: ScreenState = { ...packed.state, vt: "" };
    return { screen, asleep: { ...summary, vt_deflate: encodeBase64(packed.vt) } };
  }
  return { screen: pane.screen.saveState(), ...(summary ? { asleep: summary } : {}) };
}
