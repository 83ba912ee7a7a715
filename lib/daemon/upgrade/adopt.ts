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

import { runtimeFiles } from "../../config/paths.ts";
import type { UpgradeOutcome } from "../../protocol/daemon.ts";
import { childReaper } from "../../platform/child_reaper.ts";
import { execInPlace } from "../../platform/exec.ts";
import { loadPtyModule } from "../../platform/pty.ts";
import { adoptPty } from "../../platform/pty_adopted.ts";
import { ownCpuMs } from "../../platform/proc.ts";
import { decodeBase64 } from "../../platform/bytes.ts";
import { Screen } from "../../screen/screen.ts";
import { SCREEN_STATE_VERSION, type ScreenState } from "../../screen/screen_state.ts";
import { PROTOCOL_VERSION, VERSION } from "../../version.ts";
import {
  CHECK_SCREENS,
  type HandedPane,
  type Handoff,
  HANDOFF_CHECK_ENV,
  HANDOFF_ENV,
  HANDOFF_UNDO_ENV,
  HANDOFF_VERSION,
  readHandoff,
} from "./handoff.ts";
import type { UpgradeStep } from "../server/mod.ts";
import type { LiveWorkspace } from "../workspace/mod.ts";
import { Pane, type PaneAdoptOptions } from "../panes/mod.ts";
import { parseWorkspace } from "../records/mod.ts";
import { DEFLATE } from "../screens/mod.ts";

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
  /** The newest handoff version it reads (the old skiffd writes that, or an older one). */
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
  // Every screen was checked whole by readHandoff; a few are rebuilt to prove the emulator
  // runs (rebuilding all would take as long as the upgrade), and a few that sleep are
  // unpacked first, to prove this program reads how they are packed. The old skiffd hands
  // the rest over blank (see CHECK_SCREENS).
  const sample = [
    ...handoff.panes.filter((pane) => pane.asleep?.vt_deflate === undefined && pane.screen.vt)
      .slice(0, CHECK_SCREENS),
    ...handoff.panes.filter((pane) => pane.asleep?.vt_deflate !== undefined)
      .slice(0, CHECK_SCREENS),
  ];
  for (const state of sample.map((pane) => wholeState(pane))) {
    const screen = new Screen(state.cols, state.rows, {
      scrollback: state.history,
      respond: () => {},
    });
    try {
      screen.restoreState(state);
    } finally {
      screen.dispose();
    }
  }
  await loadPtyModule();
  childReaper();
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

/** How many busy panes are taken over before the new skiffd commits. */
const HOT_PANES = 16;
/**
 * How long (ms) taking panes over may hold the event loop before it gets a
 * turn: a screen with a long history takes tens of ms to rebuild, and
 * requests (the upgrading client's hello first) are answered between.
 */
const ADOPT_SLICE_MS = 10;

/**
 * The order panes are taken over in: `hot` ones (a person attached, or
 * output in the last seconds: see `upgrade.ts`) before the commit, most
 * recent output first, so their output stands still least; the `rest` after
 * it, a few at a time, while the hot ones already run on.
 */
export function adoptionOrder(handoff: Handoff): { hot: string[]; rest: string[] } {
  const hot = handoff.panes.filter((p) => p.hot && p.pid !== null)
    .sort((a, b) => (b.output_at ?? 0) - (a.output_at ?? 0))
    .slice(0, HOT_PANES).map((p) => p.id);
  const first = new Set(hot);
  return {
    hot,
    rest: handoff.workspace.data.panes.map((p) => p.id).filter((id) => !first.has(id)),
  };
}

/**
 * Builds pane `id` of the handoff into `workspace`, its terminal held until
 * it thaws (see {@linkcode adoptPty}). With `blankIfBroken`, a screen that
 * cannot be rebuilt starts blank rather than leaving the process unread.
 */
export function adoptPane(
  workspace: LiveWorkspace,
  handed: HandedPane,
  options: { blankIfBroken?: boolean } = {},
): Pane {
  return workspace.adopt(handed.id, (saved, base) => {
    const running = handed.pid !== null && handed.fd !== null && handed.fd >= 0;
    const pty = running ? adoptPty({ fd: handed.fd!, pid: handed.pid!, held: true }) : undefined;
    const build = (screen: ScreenState) =>
      Pane.adopt(saved, {
        ...base,
        ...(pty ? { pty } : {}),
        ...(handed.exit ? { exit: handed.exit } : {}),
        ...(handed.exited_at !== null ? { exitedAt: handed.exited_at } : {}),
        screen,
        ...(handed.asleep && screen === handed.screen ? { asleep: asleepOf(handed.asleep) } : {}),
        ...(handed.waiting ? { waiting: decodeBase64(handed.waiting) } : {}),
        ...(handed.history_aside && screen === handed.screen
          ? { historyAside: handed.history_aside }
          : {}),
        counts: {
          stateSince: handed.state_since,
          personTypedAt: handed.person_typed_at,
          personInputs: handed.person_inputs,
          outputBytes: handed.output_bytes ?? 0,
          outputAt: handed.output_at ?? 0,
        },
      });
    let adopted: Pane;
    try {
      adopted = build(handed.screen);
    } catch (error) {
      if (!options.blankIfBroken) throw error;
      const { cols, rows } = handed.screen;
      adopted = build({ version: SCREEN_STATE_VERSION, cols, rows, history: 0, vt: "", title: "" });
    }
    adopted.resume = handed.resume;
    const save = handed.screen_save;
    return {
      pane: adopted,
      ...(handed.tracker ? { tracker: handed.tracker } : {}),
      ...(save
        ? {
          screenSave: {
            unsaved: save.unsaved,
            history: { bytes: save.history_bytes, lines: save.history_lines },
          },
        }
        : {}),
    };
  });
}

/**
 * After the commit: takes over the panes `ids` a few at a time (as many as
 * {@linkcode ADOPT_SLICE_MS} allows), each read again as soon as it is
 * built, with a turn of the event loop between, so that the panes already
 * running on are read and served meanwhile.
 */
export async function adoptRest(
  workspace: LiveWorkspace,
  handoff: Handoff,
  ids: readonly string[],
  log: (line: string) => void,
): Promise<Pane[]> {
  const handed = new Map(handoff.panes.map((p) => [p.id, p]));
  const panes: Pane[] = [];
  let sliceStart = performance.now();
  for (let i = 0; i < ids.length; i++) {
    try {
      const pane = adoptPane(workspace, handed.get(ids[i])!, { blankIfBroken: true });
      pane.thaw();
      panes.push(pane);
    } catch (error) {
      log(`pane ${ids[i]} could not be taken over: ${(error as Error)?.message ?? error}`);
    }
    if (performance.now() - sliceStart >= ADOPT_SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStart = performance.now();
    }
  }
  return panes;
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
    panes: h.panes.length,
    running_panes: h.panes.filter((pane) => pane.pid !== null).length,
    unparsed_bytes: h.panes.reduce((sum, pane) => sum + base64Bytes(pane.waiting), 0),
    aside_panes: h.panes.filter((pane) => pane.history_aside !== undefined).length,
    ms: {
      ...Object.fromEntries(Object.entries(timings).filter(([key]) => !key.endsWith("_at"))),
      ...(timings.freeze_at !== undefined ? { freeze: now - timings.freeze_at } : {}),
      start: marks.entered - h.frozen_at,
      ...(marks.read !== undefined ? { read: marks.read - marks.entered } : {}),
      ...(marks.adopted !== undefined && marks.read !== undefined
        ? { adopt: marks.adopted - marks.read }
        : {}),
      ...(marks.adopted !== undefined ? { listen: now - marks.adopted } : {}),
      ...cpuTakeover(timings.cpu_at),
    },
    at: new Date(now).toISOString(),
  };
}

/** The CPU time the new program used from the exec to the commit (load does not change it). */
function cpuTakeover(before: number | undefined): Record<string, number> {
  const now = ownCpuMs();
  return before === undefined || now === undefined ? {} : { cpu_takeover: now - before };
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

/** What a handed-over sleeping screen is adopted with: its summary, and its state as it was packed. */
function asleepOf(asleep: NonNullable<HandedPane["asleep"]>): PaneAdoptOptions["asleep"] {
  const { vt_deflate, ...summary } = asleep;
  return {
    summary,
    packer: DEFLATE,
    ...(vt_deflate !== undefined ? { packedVt: decodeBase64(vt_deflate) } : {}),
  };
}

/** How many bytes `base64` holds. */
function base64Bytes(base64: string | undefined): number {
  if (!base64) return 0;
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

/** A handed pane's whole screen state, its escape sequences unpacked when they came deflated. */
function wholeState(pane: HandedPane): ScreenState {
  const packed = pane.asleep?.vt_deflate;
  if (packed === undefined) return pane.screen;
  const vt = new TextDecoder().decode(DEFLATE.unpack(decodeBase64(packed)));
  return { ...pane.screen, vt };
}
