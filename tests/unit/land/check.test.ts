/**
 * The check runner: exit codes, the last lines of the output (stdout and
 * stderr as they came, terminal codes dropped), a time limit that ends the
 * check's whole session, nothing it started left running, and a stop.
 */

import { join } from "node:path";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { checkPassed, runCheck, TAIL_LINES } from "../../../lib/land/check.ts";

function alive(marker: string): boolean {
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      if (Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).includes(marker)) return true;
    } catch {
      // Gone.
    }
  }
  return false;
}

Deno.test("runCheck: a pass, a failure with its last lines, in its folder", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const pass = await runCheck("true", { cwd, timeoutMs: 10_000 });
    assertEquals([pass.exit_code, pass.timed_out, checkPassed(pass)], [0, false, true]);
    const lines = Array.from({ length: 30 }, (_, i) => `echo line ${i}`).join("; ");
    const fail = await runCheck(`pwd; ${lines}; printf '\\033[31mred\\033[0m\\n' >&2; exit 4`, {
      cwd,
      timeoutMs: 10_000,
    });
    assertEquals([fail.exit_code, checkPassed(fail)], [4, false]);
    assertEquals(fail.output_tail.length, TAIL_LINES);
    assertEquals(fail.output_tail.at(-1), "red");
    assertEquals(fail.output_tail.at(-2), "line 29");
    assert(fail.duration_ms !== null && fail.duration_ms >= 0);
    const where = await runCheck("pwd", { cwd, timeoutMs: 10_000, env: { X: "1" } });
    assertEquals(where.output_tail, [Deno.realPathSync(cwd)]);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("runCheck: past its time limit the check and all it started are ended; it fails", async () => {
  const cwd = await Deno.makeTempDir();
  const marker = `check-${crypto.randomUUID()}`;
  try {
    await Deno.writeTextFile(join(cwd, `${marker}.sh`), "sleep 120 &\necho going\nsleep 120\n");
    const report = await runCheck(`sh ${marker}.sh`, { cwd, timeoutMs: 500 });
    assertEquals([report.timed_out, report.exit_code, checkPassed(report)], [true, null, false]);
    assertEquals(report.output_tail, ["going"]);
    assert(!alive(marker), "nothing of the check runs on");
    // A check that ends and leaves a child behind: the child is ended too.
    await Deno.writeTextFile(join(cwd, `${marker}.sh`), "sleep 120 &\necho left one\n");
    const quick = await runCheck(`sh ${marker}.sh`, { cwd, timeoutMs: 10_000 });
    assertEquals([quick.exit_code, quick.output_tail], [0, ["left one"]]);
    assert(!alive(marker), "what it left is ended");
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("runCheck: a stop ends it at once; it counts as not passed", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const stop = new AbortController();
    const running = runCheck("echo started; exec sleep 120", {
      cwd,
      timeoutMs: 60_000,
      signal: stop.signal,
    });
    stop.abort();
    const report = await running;
    assertEquals([report.timed_out, report.exit_code, checkPassed(report)], [false, null, false]);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
