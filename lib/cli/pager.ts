/**
 * Showing long output through a pager, as git does: only when stdout is a
 * terminal, with the pager git would use (`GIT_PAGER`, `core.pager`,
 * `PAGER`, else `less`), and `LESS=FRX` unless set, so output that fits on
 * one screen prints and returns at once.
 *
 * A pager is a command line the person wrote, so it runs through `sh -c`,
 * as git runs it.
 *
 * @module
 */

import { writeAllSync } from "../platform/bytes.ts";
import { stdout } from "./output.ts";

/** Whether output to stdout should go through a pager. */
export function wantsPager(): boolean {
  try {
    return Deno.stdout.isTerminal();
  } catch {
    return false;
  }
}

/**
 * Writes `data` through `pager` (a command line), or straight to stdout when
 * it is empty or `cat`. A pager that quits early (the person pressed `q`) is
 * not an error.
 */
export async function page(data: Uint8Array, pager: string): Promise<void> {
  const command = pager.trim();
  if (command === "" || command === "cat") {
    writeAllSync(stdout, data);
    return;
  }
  const env: Record<string, string> = {};
  if (Deno.env.get("LESS") === undefined) env.LESS = "FRX";
  if (Deno.env.get("LV") === undefined) env.LV = "-c";
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("sh", {
      args: ["-c", command],
      env,
      stdin: "piped",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
  } catch {
    writeAllSync(stdout, data);
    return;
  }
  const writer = child.stdin.getWriter();
  try {
    await writer.write(data);
    await writer.close();
  } catch {
    // The pager quit before reading everything.
  }
  await child.status;
}
