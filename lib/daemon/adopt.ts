/**
 * The new program's side of `skiff daemon upgrade` (see `upgrade.ts`): the
 * check it runs on a snapshot before anything changes, and the taking over
 * once it runs in the old skiffd's process.
 *
 * Taking over builds every pane from the handoff with its terminal held
 * (nothing read, no process waited for), takes the socket, and only then
 * commits: the panes read again, the handoff file goes, and the outcome is
 * kept for the client. Before the commit, a failure runs the old program
 * again, in place, on the same handoff and descriptors ({@linkcode execBack}),
 * which takes over as if nothing had happened and tells the client why.
 *
 * @module
 */

import { runtimeFiles } from "../config/paths.ts";
import type { UpgradeOutcome } from "../protocol/daemon.ts";
import { childReaper } from "../platform/child_reaper.ts";
import { execInPlace } from "../platform/exec.ts";
import { loadPtyModule } from "../platform/pty.ts";
import { adoptPty } from "../platform/pty_adopted.ts";
import { ptyReader } from "../platform/pty_reader.ts";
import { Screen } from "../screen/screen.ts";
import { PROTOCOL_VERSION, VERSION } from "../version.ts";
import {
  type Handoff,
  HANDOFF_CHECK_ENV,
  HANDOFF_ENV,
  HANDOFF_UNDO_ENV,
  HANDOFF_VERSION,
  readHandoff,
  type UpgradeStep,
} from "./handoff.ts";
import type { LiveWorkspace } from "./live_workspace.ts";
import { Pane } from "./pane.ts";
import { parseWorkspace } from "./workspace.ts";

/** How many screens the check rebuilds. */
const CHECK_SCREENS = 3;

/** How this skiffd starts: anew, by taking over in place, or by checking a handoff. */
export type StartMode =
  | { kind: "fresh" }
  | { kind: "check"; file: string }
  | { kind: "adopt"; file: string; handoff: Handoff; undo: Undo | null };

/** Why a new program gave the panes back, as it tells the old one it runs again. */
export interface Undo {
  /** The step that failed. */
  step: UpgradeStep;
  /** Why. */
  error: string;
}

function undoOf(text: string | undefined): Undo | null {
  if (!text) return null;
  try {
    const undo = JSON.parse(text);
    if (typeof undo?.step === "string" && typeof undo?.error === "string") return undo;
  } catch {
    // Said below.
  }
  return { step: "adopt", error: text };
}

/**
 * How this skiffd was asked to start, from its environment; the variables
 * are removed, so panes and the watcher never see them. A handoff that
 * cannot be read is thrown: the caller runs the old program again.
 */
export function startMode(): StartMode {
  const check = Deno.env.get(HANDOFF_CHECK_ENV);
  const file = Deno.env.get(HANDOFF_ENV);
  const undo = undoOf(Deno.env.get(HANDOFF_UNDO_ENV));
  for (const name of [HANDOFF_CHECK_ENV, HANDOFF_ENV, HANDOFF_UNDO_ENV]) Deno.env.delete(name);
  if (check) return { kind: "check", file: check };
  if (!file) return { kind: "fresh" };
  return { kind: "adopt", file, handoff: readHandoff(file), undo };
}

/** What the check prints (one JSON line) when the new program can take over. */
export interface CheckReport {
  /** Always true: a failed check throws. */
  ok: true;
  /** The new program's Skiff version. */
  version: string;
  /** Its protocol. */
  protocol: number;
  /** The handoff version it read. */
  handoff: number;
  /** How many panes it rebuilt. */
  panes: number;
  /** How long the check took (ms). */
  ms: number;
}

/**
 * The check (see `upgrade.ts`): reads the handoff, rebuilds every screen
 * and the workspace in memory, and loads what panes run with, touching
 * nothing. Throws one line when this program cannot take over.
 */
export async function checkHandoff(file: string): Promise<CheckReport> {
  const started = performance.now();
  const handoff = readHandoff(file);
  if (handoff.fault === "check") {
    throw new Error("its check failed on purpose (SKIFF_FAULT_UPGRADE=check)");
  }
  const socket = runtimeFiles().socket;
  if (handoff.socket !== socket) {
    throw new Error(`the handoff is for ${handoff.socket}, and this skiff serves ${socket}`);
  }
  parseWorkspace(handoff.workspace.data);
  // Every screen was checked whole by readHandoff; a few are rebuilt to prove
  // the emulator runs (rebuilding all would take as long as the upgrade).
  for (const pane of handoff.panes.slice(0, CHECK_SCREENS)) {
    const screen = new Screen(pane.screen.cols, pane.screen.rows, {
      scrollback: pane.screen.history,
      respond: () => {},
    });
    try {
      screen.restoreState(pane.screen);
    } finally {
      screen.dispose();
    }
  }
  await loadPtyModule();
  childReaper();
  if (!ptyReader()) throw new Error("the thread that reads terminals cannot start");
  return {
    ok: true,
    version: VERSION,
    protocol: PROTOCOL_VERSION,
    handoff: HANDOFF_VERSION,
    panes: handoff.panes.length,
    ms: Math.round(performance.now() - started),
  };
}

/** Fails a step of the new program on purpose, unless it is undoing. */
export function faultAt(mode: StartMode, step: UpgradeStep): void {
  if (mode.kind === "adopt" && !mode.undo && mode.handoff.fault === step) {
    throw new Error(`failed on purpose (SKIFF_FAULT_UPGRADE=${step})`);
  }
}

/**
 * Builds every pane of the handoff into `workspace`, each terminal held
 * until {@linkcode commitAdoption}.
 */
export function adoptPanes(workspace: LiveWorkspace, handoff: Handoff): Pane[] {
  const handed = new Map(handoff.panes.map((p) => [p.id, p]));
  return workspace.adopt((saved, base) => {
    const pane = handed.get(saved.id)!;
    const running = pane.pid !== null && pane.fd !== null && pane.fd >= 0;
    const adopted = Pane.adopt(saved, {
      ...base,
      ...(running ? { pty: adoptPty({ fd: pane.fd!, pid: pane.pid!, held: true }) } : {}),
      ...(pane.exit ? { exit: pane.exit } : {}),
      ...(pane.exited_at !== null ? { exitedAt: pane.exited_at } : {}),
      screen: pane.screen,
      counts: {
        stateSince: pane.state_since,
        personTypedAt: pane.person_typed_at,
        personInputs: pane.person_inputs,
        outputBytes: pane.output_bytes ?? 0,
        outputAt: pane.output_at ?? 0,
      },
    });
    adopted.resume = pane.resume;
    return { pane: adopted, ...(pane.tracker ? { tracker: pane.tracker } : {}) };
  });
}

/** When the new program reached each point of taking over (ms since the epoch). */
export interface AdoptMarks {
  /** It started running skiffd's code. */
  entered: number;
  /** It had read the handoff and set the workspace up. */
  read?: number;
  /** It had built every pane. */
  adopted?: number;
}

/**
 * The commit: the panes read again, the other children are waited for, the
 * handoff file goes. Returns the outcome to keep for the client.
 */
export function commitAdoption(
  mode: Extract<StartMode, { kind: "adopt" }>,
  panes: Pane[],
  marks: AdoptMarks,
): UpgradeOutcome {
  for (const pane of panes) pane.thaw();
  const reaper = childReaper();
  for (const pid of mode.handoff.children) reaper.watch(pid, () => {});
  try {
    Deno.removeSync(mode.file);
  } catch {
    // Gone already.
  }
  const h = mode.handoff;
  const timings = h.timings;
  const now = Date.now();
  const undone = mode.undo !== null;
  return {
    id: h.id,
    ok: !undone,
    from: h.from.version,
    version: VERSION,
    ...(undone ? { error: mode.undo!.error, step: mode.undo!.step } : {}),
    panes: panes.length,
    ms: {
      ...Object.fromEntries(Object.entries(timings).filter(([key]) => !key.endsWith("_at"))),
      ...(timings.freeze_at !== undefined ? { freeze: now - timings.freeze_at } : {}),
      start: marks.entered - h.frozen_at,
      ...(marks.read !== undefined ? { read: marks.read - marks.entered } : {}),
      ...(marks.adopted !== undefined && marks.read !== undefined
        ? { adopt: marks.adopted - marks.read }
        : {}),
      ...(marks.adopted !== undefined ? { listen: now - marks.adopted } : {}),
    },
    at: new Date(now).toISOString(),
  };
}

/**
 * Runs the old program again, in place, on the same handoff: this program
 * could not take over (`why`). Returns only when that exec failed too.
 */
export function execBack(
  mode: Extract<StartMode, { kind: "adopt" }>,
  step: UpgradeStep,
  why: string,
): Error {
  const h = mode.handoff;
  const keep = [
    h.fds.listener,
    h.fds.lock,
    ...h.panes.flatMap((p) => p.fd === null || p.fd < 0 ? [] : [p.fd]),
  ];
  const env = {
    ...Deno.env.toObject(),
    [HANDOFF_ENV]: mode.file,
    [HANDOFF_UNDO_ENV]: JSON.stringify(
      {
        step,
        error: `skiff ${VERSION} could not take over: ${why}`,
      } satisfies Undo,
    ),
  };
  return execInPlace(h.from.argv, { env, keep });
}
