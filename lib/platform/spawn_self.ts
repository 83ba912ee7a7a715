/**
 * Starting another copy of this program: the daemon and the watcher are the
 * same `skiff` program, run with other arguments.
 *
 * @module
 */

import { closeOnExec } from "./cloexec.ts";

/** A command line: the program and its arguments. */
export interface CommandLine {
  /** The program to run. */
  program: string;
  /** Its arguments. */
  args: string[];
}

/** How a program other than `main.ts` is run again: see {@linkcode setSelfEntry}. */
export interface SelfEntry {
  /** The entry module's URL. */
  entry: string;
  /** Deno flags that must come before the entry, as its launcher passes them. */
  denoFlags?: string[];
}

let selfEntry: SelfEntry | undefined;

/**
 * Tells {@linkcode selfCommand} that this program runs from another entry than
 * `main.ts`, such as the npm package's bundle, and with which Deno flags.
 */
export function setSelfEntry(entry: SelfEntry): void {
  selfEntry = entry;
}

/**
 * Returns the command line that runs this program with `args`.
 *
 * A compiled binary runs itself. Under `deno run`, the runtime runs the entry
 * module again with all permissions; the config is found beside it.
 */
export function selfCommand(args: string[]): CommandLine {
  if (Deno.build.standalone) return { program: Deno.execPath(), args };
  // The entry is found from this module, not Deno.mainModule, so the library
  // can start the daemon from any host program.
  const entry = selfEntry?.entry ?? new URL("../../main.ts", import.meta.url).href;
  const flags = selfEntry?.denoFlags ?? [];
  return { program: Deno.execPath(), args: ["run", "-A", "--quiet", ...flags, entry, ...args] };
}

/** Options for {@linkcode spawnDetached}. */
export interface SpawnDetachedOptions {
  /** Extra environment for the child. */
  env?: Record<string, string>;
}

/** A detached child. */
export interface DetachedChild {
  /** Its process id. */
  pid: number;
  /** Resolves with its exit code if it ends while this process still runs. */
  exited: Promise<number>;
}

/**
 * Starts this program with `args` in a new session, detached from the caller,
 * so that it outlives the caller and the caller's terminal.
 */
export function spawnDetached(args: string[], options: SpawnDetachedOptions = {}): DetachedChild {
  const line = selfCommand(args);
  closeOnExec();
  const child = new Deno.Command(line.program, {
    args: line.args,
    env: { DENO_NO_UPDATE_CHECK: "1", ...options.env },
    detached: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  child.unref();
  return { pid: child.pid, exited: child.status.then((status) => status.code) };
}

/** Returns the login shell of the current user. */
export function loginShell(): string {
  const fromEnv = Deno.env.get("SHELL");
  if (fromEnv) return fromEnv;
  try {
    const uid = Deno.uid();
    const passwd = Deno.readTextFileSync("/etc/passwd");
    for (const line of passwd.split("\n")) {
      const fields = line.split(":");
      if (fields.length >= 7 && Number(fields[2]) === uid && fields[6]) return fields[6];
    }
  } catch {
    // No passwd file: use the portable default below.
  }
  return "/bin/sh";
}
