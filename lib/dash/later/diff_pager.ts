/**
 * The dashboard's `d`: the selected pane's worktree diff as `skiff diff`
 * shows it, through the same pager, on the terminal the dashboard hands
 * over (as Enter does for an attach). `skiff diff` itself runs, so a pane of
 * another host and every check of the command come with it; a look at
 * `skiff diff --stat --json` first says whether there is anything to page,
 * so an empty diff or a refusal is told on the status row instead of
 * flashing by.
 *
 * @module
 */

import { selfCommand } from "../../platform/spawn_self.ts";

/** What `skiff diff REF --stat --json` says, in brief. */
export interface DiffSummary {
  /** The pane's name. */
  name: string;
  /** The worktree's name. */
  worktree: string;
  /** Its branch. */
  branch: string;
  /** Its base. */
  base: string;
  /** Files that differ. */
  files: number;
  /** Lines added. */
  added: number;
  /** Lines removed. */
  removed: number;
}

/** The environment of a `skiff` the dashboard runs: its own skiffd's socket. */
function childEnv(socket: string, extra: Record<string, string> = {}): Record<string, string> {
  return { SKIFF_SOCKET: socket, DENO_NO_UPDATE_CHECK: "1", ...extra };
}

/** The one line a failed `skiff … --json` gives: its JSON error's message, else its last line. */
function errorLine(stderr: string): string {
  const text = stderr.trim();
  try {
    const message = JSON.parse(text.split("\n").at(-1) ?? "").error?.message;
    if (typeof message === "string" && message !== "") return message;
  } catch {
    // Not JSON: its words as they are.
  }
  return text.split("\n").at(-1) || "skiff diff failed";
}

/** How `skiff diff REF` stands: its counts, or the line that says why it cannot show one. */
export async function diffSummary(
  ref: string,
  options: { socket: string },
): Promise<DiffSummary | string> {
  const line = selfCommand(["diff", ref, "--stat", "--json"]);
  const out = await new Deno.Command(line.program, {
    args: line.args,
    env: childEnv(options.socket),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) return errorLine(new TextDecoder().decode(out.stderr));
  const json = JSON.parse(new TextDecoder().decode(out.stdout));
  return {
    name: json.name,
    worktree: json.worktree.name,
    branch: json.worktree.branch,
    base: json.worktree.base,
    files: json.files,
    added: json.added,
    removed: json.removed,
  };
}

/**
 * The `LESS` the pager gets: the person's own (or `FRX`, as `skiff diff`
 * sets it), with `-F` turned off, so a diff that fits on one screen stays
 * until `q` instead of printing and leaving at once under the dashboard.
 */
export function pagerLess(own: string | undefined): string {
  return `${own ?? "FRX"} -+F`;
}

/**
 * Runs `skiff diff REF` on this terminal (the dashboard gave it back
 * first) and waits until the pager quits. Returns null, or the line that
 * says why it failed.
 */
export async function pageDiff(ref: string, options: { socket: string }): Promise<string | null> {
  const line = selfCommand(["diff", ref]);
  const child = new Deno.Command(line.program, {
    args: line.args,
    env: childEnv(options.socket, { LESS: pagerLess(Deno.env.get("LESS")) }),
    stdin: "inherit",
    stdout: "inherit",
    stderr: "piped",
  }).spawn();
  const [status, stderr] = await Promise.all([
    child.status,
    new Response(child.stderr).text(),
  ]);
  return status.success ? null : errorLine(stderr);
}
