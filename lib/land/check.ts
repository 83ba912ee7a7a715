/**
 * Running a project's check (`check = "COMMAND"` in projects.toml) before a
 * landing: `sh -c COMMAND` in the project's root in the worktree, in a
 * session of its own, with a time limit. A check that runs too long, or a
 * landing that is stopped, ends the check's whole session: TERM, and KILL
 * for what is left after a grace. Whatever the check started and left
 * running when it exited is ended too, so nothing it started outlives it.
 * Its output (stdout and stderr as they come) is kept as its last lines.
 *
 * @module
 */

import { killSession } from "../platform/proc.ts";
import type { CheckReport } from "../protocol/land.ts";

/** How many of the check's last lines a report keeps. */
export const TAIL_LINES = 20;

/** At most this much of the check's output is kept (its end). */
const TAIL_BYTES = 64 * 1024;

/** How long an ended check gets between TERM and KILL. */
const GRACE_MS = 2000;

/** How long the output may go on arriving after the check's processes are gone. */
const DRAIN_MS = 1000;

/** Options for {@linkcode runCheck}. */
export interface CheckOptions {
  /** The folder it runs in. */
  cwd: string;
  /** Ended after this many ms. */
  timeoutMs: number;
  /** More variables for it. */
  env?: Record<string, string>;
  /** Ends it early (the landing was stopped). */
  signal?: AbortSignal;
}

/** The end of a stream of bytes, kept as text lines. */
class Tail {
  #bytes: Uint8Array = new Uint8Array(0);

  add(chunk: Uint8Array): void {
    const joined = new Uint8Array(this.#bytes.length + chunk.length);
    joined.set(this.#bytes);
    joined.set(chunk, this.#bytes.length);
    this.#bytes = joined.length > TAIL_BYTES ? joined.slice(joined.length - TAIL_BYTES) : joined;
  }

  lines(): string[] {
    const text = new TextDecoder().decode(this.#bytes).replace(/\r\n?/g, "\n");
    // Drop control sequences a tool prints for a terminal: the lines are read as text.
    // deno-lint-ignore no-control-regex
    const plain = text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
    const lines = plain.split("\n");
    if (lines.at(-1) === "") lines.pop();
    return lines.slice(-TAIL_LINES);
  }
}

async function pump(stream: ReadableStream<Uint8Array>, tail: Tail, stop: Promise<void>) {
  const reader = stream.getReader();
  const stopped = stop.then(() => reader.cancel().catch(() => {}));
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      tail.add(value);
    }
  } catch {
    // Cancelled after the drain.
  } finally {
    void stopped;
  }
}

function signalGroup(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pid, signal);
  } catch {
    // The group is gone.
  }
}

/** Ends a check's session: TERM to its group, then KILL to whatever of it is left. */
async function end(pid: number, exited: Promise<unknown>): Promise<void> {
  signalGroup(pid, "SIGTERM");
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([exited, new Promise((r) => timer = setTimeout(r, GRACE_MS))]);
  clearTimeout(timer);
  signalGroup(pid, "SIGKILL");
  killSession(pid);
}

/** Runs `command` as the project's check and says how it went. */
export async function runCheck(command: string, options: CheckOptions): Promise<CheckReport> {
  const started = performance.now();
  const child = new Deno.Command("sh", {
    args: ["-c", command],
    cwd: options.cwd,
    env: options.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    // A session of its own: its group can be ended whole, and a terminal's Ctrl-C is ours.
    detached: true,
  }).spawn();
  const tail = new Tail();
  let stopDrain!: () => void;
  const drained = new Promise<void>((resolve) => stopDrain = resolve);
  const pumps = Promise.all([
    pump(child.stdout, tail, drained),
    pump(child.stderr, tail, drained),
  ]);
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), options.timeoutMs);
  });
  const aborted = new Promise<"aborted">((resolve) => {
    if (options.signal?.aborted) resolve("aborted");
    options.signal?.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
  const first = await Promise.race([child.status, timeout, aborted]);
  clearTimeout(timer);
  if (first === "timeout" || first === "aborted") {
    timedOut = first === "timeout";
    await end(child.pid, child.status);
  } else {
    // What it left running ends with it: nothing a check starts outlives the landing.
    signalGroup(child.pid, "SIGKILL");
    killSession(child.pid);
  }
  const status = await child.status;
  let drainTimer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([pumps, new Promise((r) => drainTimer = setTimeout(r, DRAIN_MS))]);
  clearTimeout(drainTimer);
  stopDrain();
  await pumps;
  const ended = first !== "timeout" && first !== "aborted" ? null : status;
  return {
    command,
    cwd: options.cwd,
    ran: true,
    exit_code: ended ? null : status.code,
    timed_out: timedOut,
    duration_ms: Math.round(performance.now() - started),
    output_tail: tail.lines(),
  };
}

/** Whether a check's report says it passed. */
export function checkPassed(report: CheckReport): boolean {
  return report.ran && !report.timed_out && report.exit_code === 0;
}
