/**
 * Helpers for the `skiff ledger` end-to-end tests: rows and listings as JSON,
 * the panes, the agent's folder, and commands that must fail.
 *
 * @module
 */

import { join } from "node:path";
import { assertEquals, assertMatch } from "./assert.ts";
import type { RunResult, SkiffEnv } from "./skiff.ts";
import type { TaskJson } from "../../lib/ledger/mod.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

/** The default agent's folder, `~/skiff-agent`, in the test's HOME. */
export function agentDir(skiff: SkiffEnv): string {
  return join(skiff.env.HOME, "skiff-agent");
}

/** Runs `skiff ledger <args> --json` and returns the row it prints. */
export async function row(skiff: SkiffEnv, args: string[]): Promise<TaskJson> {
  return (await skiff.json<{ row: TaskJson }>(["ledger", ...args])).row;
}

/** Runs `skiff ledger ls <args> --json`. */
export async function list(
  skiff: SkiffEnv,
  args: string[] = [],
): Promise<{ liveness: string; rows: TaskJson[] }> {
  return await skiff.json<{ liveness: string; rows: TaskJson[] }>(["ledger", "ls", ...args]);
}

/** The uids of a listing, a plan's tasks as `plan/task`. */
export function uids(rows: TaskJson[]): string[] {
  return rows.flatMap((r) => [r.uid, ...(r.tasks ?? []).map((t) => `${r.uid}/${t.uid}`)]);
}

/** The panes of `skiff ls --json`. */
export async function panes(skiff: SkiffEnv): Promise<PaneInfo[]> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
}

/** The names in `dir`, sorted. */
export async function files(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

/** True when something exists at `path`. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Runs a command that must fail, and checks its exit code and one-line text error. */
export async function fails(
  skiff: SkiffEnv,
  args: string[],
  code: number,
  pattern: RegExp,
): Promise<RunResult> {
  const result = await skiff.run(args);
  assertEquals(result.code, code, `skiff ${args.join(" ")}: ${result.stderr}`);
  assertEquals(result.stdout, "");
  assertMatch(result.stderr, /^skiff: [^\n]+\n$/, "one error line");
  assertMatch(result.stderr, pattern);
  return result;
}

/** The error object of a failed `--json` command. */
export interface JsonError {
  /** The error's code, such as `not_found` or `usage`. */
  code: string;
  /** The exit code. */
  exit: number;
  /** The error message. */
  message: string;
  /** Extra fields, such as `path` or `candidates`. */
  [k: string]: unknown;
}

/** Runs a command with --json that must fail, and returns the error object from stderr. */
export async function failsJson(skiff: SkiffEnv, args: string[], code: number): Promise<JsonError> {
  const result = await skiff.run([...args, "--json"]);
  assertEquals(result.code, code, `skiff ${args.join(" ")}: ${result.stderr}`);
  assertEquals(result.stdout, "", "nothing on stdout");
  const lines = result.stderr.trim().split("\n");
  assertEquals(lines.length, 1, "one JSON line on stderr");
  const body = JSON.parse(lines[0]);
  assertEquals(body.schema_version, 1);
  assertEquals(body.error.exit, code);
  return body.error as JsonError;
}
