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
/**
 * A busy pane with more history than this hands its older lines over apart
 * (see `lib/screen/history_aside.ts`): rebuilding 10,000 lines takes
 * 100–150 ms in a new skiffd, and a busy pane's output waits for it.
 */
const ASIDE_FROM_LINES = 2000;
/** How many of the newest history lines such a pane's screen is rebuilt with at once. */
const ASIDE_KEEP_LINES = 500;

/** What {@linkcode handedPane} puts in besides the pane's process and counts. */
export interface HandedPaneOptions {
  /** Its screen (default); without, a blank one of its size (for an upgrade's check). */
  screen?: boolean;
  /** The output that waits to be parsed, as it is (a running pane's; version 3). */
  waiting?: boolean;
  /** A busy pane's older history lines apart from its screen (version 4). */
  aside?: boolean;
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
  const hot = live && (pane.attached > 0 || Date.now() - pane.outputAt < HOT_OUTPUT_MS);
  return {
    id: pane.id,
    pid: live ? pane.pid : null,
    fd: live ? pane.handoffFd ?? -1 : null,
    exit: live ? null : pane.exit ?? null,
    exited_at: live ? null : pane.exitedAt ?? null,
    ...(options.screen ?? true
      ? screenOf(pane, { aside: hot && options.aside })
      : { screen: blankScreen(pane) }),
    ...(waiting && waiting.length > 0 ? { waiting: encodeBase64(waiting) } : {}),
    tracker: workspace.watches.get(pane)?.tracker.save() ?? null,
    state_since: pane.stateSince,
    person_typed_at: pane.personTypedAt,
    person_inputs: pane.personInputs,
    output_bytes: pane.outputBytes,
    output_at: pane.outputAt,
    ...(pane.resume ? { resume: pane.resume } : {}),
    hot,
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
 * still deflated, as it slept, and what it kept beside it; an awake one
 * whole, or with its older history apart when `aside` and it is long.
 */
function screenOf(
  pane: Pane,
  options: { aside?: boolean },
): Pick<HandedPane, "screen" | "asleep" | "history_aside"> {
  const packed = pane.screen.packedState;
  const summary = pane.screen.sleepSummary;
  if (packed && summary && packed.packer === DEFLATE) {
    const screen: ScreenState = { ...packed.state, vt: "" };
    return { screen, asleep: { ...summary, vt_deflate: encodeBase64(packed.vt) } };
  }
  if (!summary && options.aside && pane.screen.historyLines > ASIDE_FROM_LINES) {
    const { state, aside } = pane.screen.splitState(ASIDE_KEEP_LINES);
    return { screen: state, ...(aside ? { history_aside: aside } : {}) };
  }
  return { screen: pane.screen.saveState(), ...(summary ? { asleep: summary } : {}) };
}
