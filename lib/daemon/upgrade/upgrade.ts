/**
 * `skiff daemon upgrade`: skiffd replaces its own program, in place, with a
 * new one, and every pane's process runs on.
 *
 * How. skiffd execs the new program in the same process (`execve`, see
 * `lib/platform/exec.ts`), keeping the listening socket, its lock and every
 * pane's PTY master open across the exec, and hands over the rest in a file
 * (`handoff.ts`). The panes' processes stay this process's children, so the
 * new program waits for them itself on SIGCHLD and still sees each exit
 * code (`lib/platform/child_reaper.ts`); it reads and writes their terminals
 * without node-pty (`lib/platform/pty_adopted.ts`). The pid, the lock, the
 * scope and the session keyring stay what they were, and connections made
 * during the exec wait in the socket's queue. Passing the descriptors to a
 * new process over a socket (SCM_RIGHTS) was the other way: it needs no
 * exec, but the children would belong to a process that ends, and their
 * exit codes would be lost.
 *
 * Steps, all or nothing:
 *
 * 1. `check`: the new program reads a snapshot of the handoff in a process
 *    of its own (`adopt.ts`: {@linkcode checkHandoff}): it must read this
 *    handoff version, rebuild every screen and load what it runs panes with.
 *    skiffd serves on meanwhile; only panes that flood wait (see
 *    {@linkcode holdFloods}), as they do through the freeze.
 * 2. `quiesce`: new requests are refused for the moment, and requests under
 *    way (a guarded send holding a pane's input) are answered first.
 * 3. `freeze`: every pane's output stops at its terminal (it waits in the
 *    kernel), the reader thread hands over what it read, and the screens
 *    parse everything that came.
 * 4. `save`: the handoff file is written.
 * 5. `exec`: the new program replaces this one.
 * 6. In the new program (`adopt.ts`), `adopt` and `listen`: it rebuilds the
 *    busy panes (a person attached, or output in the last seconds), each
 *    with its newest history only when it is long (the older lines are
 *    built under it when first read: `lib/screen/history_aside.ts`), and
 *    takes the socket. Until then a failure runs the old program again, in
 *    place, on the same handoff; then it commits, and the busy panes run on
 *    while the others are rebuilt a few at a time (requests wait for them).
 *
 * A failure before the exec thaws the panes and answers the request with
 * why; after it, the client learns the outcome from the hello of whichever
 * skiffd answers. `SKIFF_FAULT_UPGRADE=STEP` fails a step on purpose.
 *
 * Measured on the project's machine (2 cores, shared with other work, load
 * 3–4): with 200 panes, 2.0–3.2 s from the command to the new skiffd
 * answering, of which the new program's check takes 0.9–1.3 s; a busy
 * pane's output stands still 0.6–1.2 s (what an exec, Deno's start and one
 * screen cost). The old skiffd's freeze takes 10–130 ms of CPU, and the new
 * program's start to its commit 0.55–0.7 s. `deno task bench` reports them.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";
import type { RuntimeFiles } from "../../config/paths.ts";
import type { UpgradeOutcome } from "../../protocol/daemon.ts";
import { descriptorOf, execInPlace, ownCommandLine } from "../../platform/exec.ts";
import { ptyReader } from "../../platform/pty_reader.ts";
import { ownCpuMs } from "../../platform/proc.ts";
import { PROTOCOL_VERSION, VERSION } from "../../version.ts";
import type { EventBus } from "../records/mod.ts";
import {
  type Handoff,
  HANDOFF_CHECK_ENV,
  HANDOFF_ENV,
  HANDOFF_PARSED_VERSION,
  HANDOFF_UNDO_ENV,
  HANDOFF_VERSION,
  HANDOFF_WAITING_VERSION,
  handoffFile,
  otherChildren,
  writeHandoff,
} from "./handoff.ts";
import { handedPane } from "./handed_pane.ts";
import { checkSample, runCheck } from "./program_check.ts";
import { holdFloods, settleExits, thawAll } from "./pane_hold.ts";
import type { Server, UpgradeRequest, UpgradeStep, WatcherRegistry } from "../server/mod.ts";
import type { LiveWorkspace } from "../workspace/mod.ts";
import type { Pane } from "../panes/mod.ts";

/** How long requests under way may take to be answered before the upgrade gives up. */
const QUIESCE_TIMEOUT_MS = 15_000;
/**
 * How long floods may wait for the new program's check (see
 * {@linkcode holdFloods}) before they are read again anyway.
 */
const FLOOD_HOLD_MS = 5000;
/** Requests that may be cut off by the exec: waits the client can make again. */
const MAY_CUT = new Set(["daemon.upgrade", "pane.wait"]);

/** What the upgrade needs of the running skiffd. */
export interface UpgradeParts {
  /** The socket's files. */
  files: RuntimeFiles;
  /** Sessions and panes. */
  workspace: LiveWorkspace;
  /** The event stream. */
  events: EventBus;
  /** The watcher's health and remembered lines. */
  watcher: WatcherRegistry;
  /** The socket. */
  server: Server;
  /** The inode of the lock file skiffd holds its lock on. */
  lockInode: () => number | null;
  /** When the first skiffd of this process started (ISO 8601). */
  started: string;
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
}

/** A step that failed: the upgrade stops there and undoes what it did. */
class StepFailed extends Error {
  constructor(readonly step: UpgradeStep, message: string) {
    super(message);
  }
}

/** Runs upgrades of this skiffd, one at a time; see the module's description. */
export class Upgrader {
  readonly #parts: UpgradeParts;
  #busy = false;
  #last: UpgradeOutcome | null;

  /** `last` is the outcome a skiffd before this one handed over, if any. */
  constructor(parts: UpgradeParts, last: UpgradeOutcome | null = null) {
    this.#parts = parts;
    this.#last = last;
  }

  /** How the last upgrade went, or null. */
  get last(): UpgradeOutcome | null {
    return this.#last;
  }

  /** Keeps the outcome of the upgrade that brought this program in (see `adopt.ts`). */
  took(outcome: UpgradeOutcome): void {
    this.#last = outcome;
  }

  /**
   * Upgrades: returns only by throwing when a step before the exec failed
   * (every pane as it was); on success this process runs the new program.
   */
  async upgrade(request: UpgradeRequest): Promise<never> {
    if (this.#busy) {
      throw new SkiffError("An upgrade of skiffd is under way already", { exit: "CONFLICT" });
    }
    if (Deno.build.os !== "linux") {
      throw new SkiffError(
        "skiff daemon upgrade works on Linux only; 'skiff daemon restart' restarts skiffd " +
          "(every pane comes back as a new shell)",
        { exit: "DAEMON" },
      );
    }
    const program = request.program ?? ownCommandLine();
    if (!program) {
      throw new SkiffError("Cannot read skiffd's own command line", { exit: "DAEMON" });
    }
    this.#busy = true;
    const started = performance.now();
    const timings: Record<string, number> = {};
    const { log, server, workspace } = this.#parts;
    const files = [handoffFile(this.#parts.files, `${request.id}-check`)];
    let frozen: Pane[] = [];
    let held: Pane[] = [];
    let step: UpgradeStep = "check";
    log(`upgrade ${request.id}: to ${request.version ?? "?"} (${program.join(" ")})`);
    try {
      const checkStart = performance.now();
      writeHandoff(files[0], this.#capture(request, {}, { check: true }));
      held = holdFloods(workspace.panes);
      const release = setTimeout(() => thawAll(held), FLOOD_HOLD_MS);
      const check = await runCheck(program, files[0]);
      clearTimeout(release);
      thawAll(held);
      if (held.length > 0) {
        log(`upgrade ${request.id}: flooding panes held for the check: ${held.length}`);
      }
      Deno.removeSync(files[0]);
      if (!check.ok) throw new StepFailed("check", check.error);
      // A new program that reads version 3 takes the output that waits as it is: the freeze
      // then does not wait for busy panes' output to be parsed (seconds, under floods).
      const handOverWaiting = check.reads >= HANDOFF_WAITING_VERSION;
      // One that reads version 4 takes busy panes' older history apart, and runs them first.
      const handOverAside = check.reads >= HANDOFF_VERSION;
      timings.check = Math.round(performance.now() - checkStart);

      step = "quiesce";
      const quiesceStart = performance.now();
      if (!(await server.hold(MAY_CUT, QUIESCE_TIMEOUT_MS))) {
        throw new StepFailed(
          "quiesce",
          `requests still under way after ${QUIESCE_TIMEOUT_MS / 1000} s: ` +
            server.requestsUnderWay.join(", "),
        );
      }
      fault(request, "quiesce");
      timings.quiesce = Math.round(performance.now() - quiesceStart);

      step = "freeze";
      const freezeStart = performance.now();
      timings.freeze_at = Date.now();
      const freezeCpu = ownCpuMs();
      frozen = workspace.panes;
      const stuck = frozen.filter((pane) => !pane.freeze());
      if (stuck.length > 0) {
        throw new StepFailed(
          "freeze",
          `pane ${stuck.map((p) => p.id).join(", ")} cannot be handed over: its output is ` +
            "read without the reader thread (see skiffd's log)",
        );
      }
      await settleExits(frozen);
      await ptyReader()?.sync();
      fault(request, "freeze");
      // From here on nothing waits: no event, output or request comes in between. Output
      // that waits is parsed now, or handed over as it is with its terminal.
      for (const pane of frozen) {
        if (!handOverWaiting || pane.status !== "running") pane.drainOutput();
      }

      step = "save";
      const saveStart = performance.now();
      timings.hold = Math.round(saveStart - freezeStart);
      const handoff = this.#capture(request, timings, {
        waiting: handOverWaiting,
        aside: handOverAside,
      });
      fault(request, "save");
      files.push(handoffFile(this.#parts.files, request.id));
      handoff.timings.save = Math.round(performance.now() - saveStart);
      handoff.frozen_at = Date.now();
      const cpu = ownCpuMs();
      if (cpu !== undefined && freezeCpu !== undefined) {
        handoff.timings.cpu_hold = cpu - freezeCpu;
        handoff.timings.cpu_at = cpu;
      }
      writeHandoff(files[1], handoff);

      step = "exec";
      const keep = [
        handoff.fds.listener,
        handoff.fds.lock,
        ...handoff.panes.flatMap((p) => p.fd === null ? [] : [p.fd]),
      ];
      const env: Record<string, string> = {
        ...Deno.env.toObject(),
        [HANDOFF_ENV]: files[1],
        DENO_NO_UPDATE_CHECK: "1",
      };
      delete env[HANDOFF_CHECK_ENV];
      delete env[HANDOFF_UNDO_ENV];
      const unparsed = handoff.panes.filter((pane) => pane.waiting).length;
      const size = (Deno.statSync(files[1]).size / 1e6).toFixed(1);
      log(
        `upgrade ${request.id}: handing ${handoff.panes.length} panes over in ${size} MB` +
          (unparsed > 0 ? ` (${unparsed} with output not parsed yet)` : "") + "; exec",
      );
      const argv = request.fault === "exec" ? ["/nonexistent/skiff-fault-exec"] : program;
      const error = execInPlace(argv, { env, keep });
      throw new StepFailed(
        "exec",
        request.fault === "exec"
          ? `failed on purpose (SKIFF_FAULT_UPGRADE=exec): ${error.message}`
          : error.message,
      );
    } catch (error) {
      thawAll([...held, ...frozen]);
      server.release();
      for (const file of files) Deno.remove(file).catch(() => {});
      const failed = error instanceof StepFailed ? error : new StepFailed(step, String(error));
      const message = (error as Error)?.message ?? String(error);
      log(`upgrade ${request.id} failed at ${failed.step}, every pane as it was: ${message}`);
      this.#last = {
        id: request.id,
        ok: false,
        from: VERSION,
        version: VERSION,
        error: message,
        step: failed.step,
        panes: workspace.panes.length,
        running_panes: workspace.panes.filter((pane) => pane.status === "running").length,
        ms: { ...timings, total: Math.round(performance.now() - started) },
        at: new Date().toISOString(),
      };
      throw new SkiffError(
        `The upgrade stopped at its ${failed.step} step: ${message}. skiffd ${VERSION} runs on ` +
          "with every pane as it was",
        { exit: "DAEMON", details: { step: failed.step } },
      );
    } finally {
      this.#busy = false;
    }
  }

  /**
   * The handoff as things are now: for the `check`, a snapshot with a few
   * screens (see `CHECK_SCREENS` in `handoff.ts`); else the last word, when
   * frozen, with the output that waits when `waiting`, and busy panes'
   * older history apart when `aside`.
   */
  #capture(
    request: UpgradeRequest,
    timings: Record<string, number>,
    options: { check?: boolean; waiting?: boolean; aside?: boolean } = {},
  ): Handoff {
    const { files, workspace, events, watcher, server } = this.#parts;
    const listener = server.listenerFd;
    const lock = descriptorOf(files.lock, this.#parts.lockInode());
    if (listener === undefined || lock === undefined) {
      throw new StepFailed(
        "save",
        `cannot find skiffd's ${listener === undefined ? "listening socket" : "lock"} descriptor`,
      );
    }
    const panes = workspace.panes;
    const running = new Set(panes.filter((p) => p.status === "running").map((p) => p.pid));
    const sampled = options.check ? checkSample(panes) : new Set<number>();
    return {
      format: "skiff-handoff",
      // No newer than what is handed over needs: an older reader takes the rest.
      version: options.aside
        ? HANDOFF_VERSION
        : options.waiting
        ? HANDOFF_WAITING_VERSION
        : HANDOFF_PARSED_VERSION,
      id: request.id,
      from: {
        version: VERSION,
        protocol: PROTOCOL_VERSION,
        argv: ownCommandLine() ?? [],
        pid: Deno.pid,
      },
      socket: files.socket,
      started: this.#parts.started,
      frozen_at: Date.now(),
      fault: request.fault ?? null,
      fds: { listener, lock },
      events: events.save(),
      workspace: workspace.memory(),
      panes: panes.map((pane, i) =>
        handedPane(pane, workspace, {
          screen: !options.check || sampled.has(i),
          waiting: options.waiting,
          aside: options.aside,
        })
      ),
      told: watcher.toldLines(),
      children: otherChildren(running),
      timings,
    };
  }
}

function fault(request: UpgradeRequest, step: UpgradeStep): void {
  if (request.fault === step) {
    throw new StepFailed(step, `failed on purpose (SKIFF_FAULT_UPGRADE=${step})`);
  }
}
