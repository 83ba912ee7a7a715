/**
 * Exec in place with a PTY master kept open, and a PTY adopted by the new
 * program: same pid, every line of output once and in order, input, resize
 * and the child's exit code (waited for by the new program).
 */

import { assert, assertEquals } from "../../helpers/assert.ts";

const FIXTURE = new URL("../../fixtures/exec_adopt.ts", import.meta.url).pathname;

interface Report {
  pid: number;
  child: number;
  before: string;
  after: string;
  exit: { exitCode: number; signal: number; unknown?: boolean };
  failed: string | null;
}

async function run(mode: string): Promise<{ pid: number; report: Report }> {
  const process = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", FIXTURE, mode],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const output = await process.output();
  const text = new TextDecoder().decode(output.stdout);
  assertEquals(output.code, 0, text);
  return { pid: process.pid, report: JSON.parse(text.trim().split("\n").at(-1)!) };
}

function numbers(text: string): number[] {
  return [...text.matchAll(/^n(\d+)\r$/gm)].map((m) => Number(m[1]));
}

for (const mode of ["parent", "parent-fail"]) {
  Deno.test(`exec in place, then an adopted PTY (${mode})`, async () => {
    const { pid, report } = await run(mode);
    assertEquals(report.pid, pid, "the new program runs in the same process");
    const seen = [...numbers(report.before), ...numbers(report.after)];
    assertEquals(seen, Array.from({ length: 300 }, (_, i) => i), "each line once, in order");
    assert(numbers(report.after).length > 0, "some lines came after the exec");
    assert(report.after.includes("got:hello"), report.after);
    assert(report.after.includes("30 100"), `the resize reached the terminal: ${report.after}`);
    assertEquals(report.exit, { exitCode: 7, signal: 0 });
    if (mode === "parent-fail") {
      assert(report.failed?.includes("No such file or directory"), String(report.failed));
    }
  });
}
