/**
 * Helpers for the ledger tests. For the library: temporary folders, a fixed
 * clock, raw access to the database file, and processes released together.
 * For the `skiff ledger` end-to-end tests: rows and listings as JSON, the
 * panes, the agent's folder, and commands that must fail.
 *
 * @module
 */

import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { SkiffError } from "../../lib/errors.ts";
import { type Ledger, openLedger, type OpenOptions } from "../../lib/ledger/mod.ts";
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

/** A fixed moment for tests: 5 March 2024, noon local time. */
export const NOON = new Date(2024, 2, 5, 12, 0, 0);

/** A temporary folder that removes itself with `await using`. */
export async function tempDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "skiff-ledger-test-" });
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true });
    },
  };
}

/** Opens a ledger in `dir` with the fixed clock unless options say otherwise. */
export function open(dir: string, options: OpenOptions = {}): Ledger {
  return openLedger(join(dir, "ledger.db"), { now: () => NOON, cwd: dir, ...options });
}

/** Runs a function on a raw connection to a database file, then closes it. */
export function raw<T>(path: string, fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Asserts that `fn` throws a SkiffError with this exit name, and returns it. */
export function throwsSkiff(
  fn: () => unknown,
  exit: SkiffError["exit"],
  match?: RegExp,
): SkiffError {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof SkiffError)) throw new Error(`expected a SkiffError, got ${error}`);
    if (error.exit !== exit) {
      throw new Error(`expected exit ${exit}, got ${error.exit}: ${error.message}`);
    }
    if (match && !match.test(error.message)) {
      throw new Error(`message ${JSON.stringify(error.message)} does not match ${match}`);
    }
    if (error.message.includes("\n")) throw new Error("error message has more than one line");
    return error;
  }
  throw new Error(`expected a SkiffError with exit ${exit}, but nothing was thrown`);
}

/** Every file in a folder (not recursive) with its bytes. */
export function snapshot(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.isFile) files.set(entry.name, Deno.readFileSync(join(dir, entry.name)));
  }
  return files;
}

/** A pane for tests. */
export function pane(id: string, generation: number | null = 1000, name = `name-${id}`) {
  return { id, name, generation };
}

/** What one process of {@linkcode startTogether} left. */
export interface TogetherResult {
  /** How it ended. */
  status: Deno.CommandStatus;
  /** All it printed. */
  stdout: string;
  /** All it printed to stderr. */
  stderr: string;
}

/**
 * Starts one `deno` process per argument list. Each prints `ready` and then
 * waits for `go` on stdin; once all are ready they are released together.
 * Returns their outputs and the ms from the release until the last ended.
 */
export async function startTogether(
  argsList: string[][],
): Promise<{ results: TogetherResult[]; elapsed: number }> {
  const children = argsList.map((args) =>
    new Deno.Command(Deno.execPath(), { args, stdin: "piped", stdout: "piped", stderr: "piped" })
      .spawn()
  );
  // Read each child's stdout in full, and note when it says "ready".
  const streams = children.map((child) => {
    const ready = Promise.withResolvers<void>();
    const all = (async () => {
      let text = "";
      for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
        text += chunk;
        if (text.startsWith("ready\n")) ready.resolve();
      }
      ready.reject(new Error(`a process ended before it was ready: ${text}`));
      return text;
    })();
    return { ready: ready.promise, all };
  });
  await Promise.all(streams.map((s) => s.ready));
  const started = performance.now();
  await Promise.all(children.map(async (child) => {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("go\n"));
    await writer.close();
  }));
  const results = await Promise.all(children.map(async (child, i) => {
    const [status, stdout, stderr] = await Promise.all([
      child.status,
      streams[i].all,
      new Response(child.stderr).text(),
    ]);
    return { status, stdout, stderr };
  }));
  return { results, elapsed: performance.now() - started };
}

/** Another program (Python's sqlite3) that holds a lock on a database until released. */
export interface LockHolder extends AsyncDisposable {
  /** Ends the other program, which lets go of the lock. */
  release(): Promise<void>;
}

/**
 * Starts another program that takes a lock on the database at `path` and
 * keeps it: `write` is a write transaction (readers in WAL mode still
 * read), `exclusive` the exclusive locking mode (nobody else gets in).
 * Resolves once the lock is held.
 */
export async function holdLock(path: string, how: "write" | "exclusive"): Promise<LockHolder> {
  const take = how === "write"
    ? ["c.execute('BEGIN IMMEDIATE')"]
    : ["c.execute('PRAGMA locking_mode=EXCLUSIVE')", "c.execute('BEGIN EXCLUSIVE')"];
  const script = [
    "import sqlite3, sys",
    `c = sqlite3.connect(${JSON.stringify(path)}, isolation_level=None)`,
    ...take,
    "print('locked', flush=True)",
    "sys.stdin.read()",
  ].join("\n");
  const child = new Deno.Command("python3", {
    args: ["-c", script],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  const first = await reader.read();
  const said = new TextDecoder().decode(first.value ?? new Uint8Array());
  if (!said.startsWith("locked")) throw new Error(`the lock holder said: ${said}`);
  reader.releaseLock();
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await child.stdin.close();
    await child.stdout.cancel();
    await child.status;
  };
  return { release, [Symbol.asyncDispose]: release };
}
