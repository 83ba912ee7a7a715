/**
 * The new program's check before an upgrade (step 1 in `upgrade.ts`): which
 * screens the check's handoff snapshot carries whole, and running the new
 * program on it in a process of its own.
 *
 * @module
 */

import { closeOnExec } from "../../platform/cloexec.ts";
import type { Pane } from "../panes/mod.ts";
import { CHECK_SCREENS, HANDOFF_CHECK_ENV } from "./handoff.ts";

/** How long the new program's check may take. */
const CHECK_TIMEOUT_MS = 30_000;

/**
 * The panes (by index) whose screens an upgrade's check hands over whole:
 * the few awake with the least history, and the first few asleep (the new
 * program rebuilds those). Any screen proves the program reads the state
 * and its emulator runs; a flooding pane's 10,000 lines made the check
 * write and rebuild 30,000 lines while the floods took the cores.
 */
export function checkSample(panes: Pane[]): Set<number> {
  const awake: { i: number; lines: number }[] = [];
  const sample = new Set<number>();
  let asleep = 0;
  panes.forEach((pane, i) => {
    if (!pane.screen.asleep) awake.push({ i, lines: pane.screen.historyLines });
    else if (asleep++ < CHECK_SCREENS) sample.add(i);
  });
  awake.sort((a, b) => a.lines - b.lines || a.i - b.i);
  for (const { i } of awake.slice(0, CHECK_SCREENS)) sample.add(i);
  return sample;
}

/** What the new program's check said: with the newest handoff version it reads. */
export type CheckResult = { ok: true; reads: number } | { ok: false; error: string };

/** Runs the new program's check on the handoff at `file` (see `adopt.ts`). */
export async function runCheck(program: string[], file: string): Promise<CheckResult> {
  closeOnExec();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program[0], {
      args: program.slice(1),
      env: { [HANDOFF_CHECK_ENV]: file, DENO_NO_UPDATE_CHECK: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    return { ok: false, error: `cannot run ${program[0]}: ${(error as Error).message}` };
  }
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Ended already.
    }
  }, CHECK_TIMEOUT_MS);
  const output = await child.output();
  clearTimeout(timer);
  const stdout = new TextDecoder().decode(output.stdout).trim();
  const stderr = new TextDecoder().decode(output.stderr).trim();
  if (output.success) {
    try {
      const report = JSON.parse(stdout.split("\n").at(-1) ?? "");
      // A program before handoff version 3 reports the version it writes, the newest it reads.
      if (report?.ok === true) {
        return { ok: true, reads: typeof report.handoff === "number" ? report.handoff : 1 };
      }
    } catch {
      // Not the check's answer: said below.
    }
  }
  const line = stderr.split("\n").map((l) => l.trim()).find((l) => l !== "") ??
    stdout.split("\n").at(-1) ?? "";
  const why = line.replace(/^skiff: /, "").slice(0, 300);
  return {
    ok: false,
    error: output.signal === "SIGKILL"
      ? `the new program did not finish its check within ${CHECK_TIMEOUT_MS / 1000} s`
      : `the new program cannot take over: ${why || `its check exited ${output.code}`}`,
  };
}
