/**
 * Running `git`: the one place Skiff starts it. Arguments go to the program
 * as a list (no shell), each run has a time limit, and a missing `git` is one
 * clear error.
 *
 * Git runs with `LC_ALL=C`, no terminal prompts, and without the variables
 * that would point it at another repository (`GIT_DIR`, `GIT_WORK_TREE`,
 * `GIT_INDEX_FILE`, …), which a skiffd started from a git hook could carry.
 * Reads pass `GIT_OPTIONAL_LOCKS=0`, so a status taken in the background
 * never holds the index lock an agent's own `git commit` needs.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";

/** How long one git run may take by default. */
export const GIT_TIMEOUT_MS = 30_000;

/** What one git run gave. */
export interface GitResult {
  /** The exit code. */
  code: number;
  /** Standard output, as bytes (porcelain `-z` output may hold any path). */
  stdout: Uint8Array;
  /** Standard error, as text. */
  stderr: string;
}

/** Options for {@linkcode runGit}. */
export interface GitOptions {
  /** The folder git runs in. */
  cwd: string;
  /** Kill git after this many ms (default {@linkcode GIT_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** A read that must not take optional locks (a background status). */
  read?: boolean;
  /** More variables for git. */
  env?: Record<string, string>;
  /** Keep the person's pager and editor settings (to ask git which pager it would use). */
  personal?: boolean;
  /** What git reads on its standard input (none by default). */
  input?: Uint8Array | string;
}

/** Variables that would point git at another repository than the folder's own. */
const REPOSITORY_VARS = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_COMMON_DIR",
  "GIT_PREFIX",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_NAMESPACE",
  "GIT_CEILING_DIRECTORIES",
];

function gitEnv(options: GitOptions): Record<string, string> {
  const env = Deno.env.toObject();
  for (const name of REPOSITORY_VARS) delete env[name];
  env.LC_ALL = "C";
  env.GIT_TERMINAL_PROMPT = "0";
  if (!options.personal) {
    // A run must never wait on the person's editor or pager.
    env.GIT_PAGER = "cat";
    env.GIT_EDITOR = "true";
  }
  if (options.read) env.GIT_OPTIONAL_LOCKS = "0";
  return { ...env, ...options.env };
}

/** The error for a `git` that is not installed. */
export function gitMissing(cause?: unknown): SkiffError {
  return new SkiffError(
    "git is not installed (no 'git' on the PATH skiffd has): worktrees need it",
    { exit: "NOT_FOUND", details: { reason: "git_missing" }, cause },
  );
}

/**
 * Runs `git ARGS…` in `options.cwd` and returns its exit code and output,
 * whatever the code. Throws {@linkcode gitMissing} when there is no git, and
 * a {@linkcode SkiffError} (exit `ERROR`) when it outlives its time limit
 * (it is killed) or the folder cannot be entered.
 */
export async function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const timeout = options.timeoutMs ?? GIT_TIMEOUT_MS;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeout);
  try {
    let output: Deno.CommandOutput;
    try {
      const command = new Deno.Command("git", {
        args: [...args],
        cwd: options.cwd,
        env: gitEnv(options),
        clearEnv: true,
        stdin: options.input === undefined ? "null" : "piped",
        stdout: "piped",
        stderr: "piped",
        signal: abort.signal,
      });
      if (options.input === undefined) output = await command.output();
      else {
        const child = command.spawn();
        const input = typeof options.input === "string"
          ? new TextEncoder().encode(options.input)
          : options.input;
        // Written while the output is read, so a big input never waits on a full pipe.
        const written = (async () => {
          const writer = child.stdin.getWriter();
          try {
            await writer.write(input);
            await writer.close();
          } catch {
            // git ended without reading it all: its exit code says why.
          }
        })();
        output = await child.output();
        await written;
      }
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        // Either git or the folder is missing: tell which.
        if (!folderExists(options.cwd)) {
          throw new SkiffError(`Folder ${options.cwd} does not exist`, {
            exit: "NOT_FOUND",
            cause: error,
          });
        }
        throw gitMissing(error);
      }
      throw error;
    }
    if (abort.signal.aborted) {
      throw new SkiffError(
        `git ${args[0]} took longer than ${Math.round(timeout / 1000)} s in ${options.cwd}`,
        { exit: "ERROR" },
      );
    }
    return {
      code: output.code,
      stdout: output.stdout,
      stderr: new TextDecoder().decode(output.stderr),
    };
  } finally {
    clearTimeout(timer);
  }
}

function folderExists(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** The first line git wrote to stderr, without its `fatal: ` or `error: ` label. */
export function gitComplaint(result: GitResult): string {
  const line = result.stderr.split("\n").map((l) => l.trim()).find((l) => l !== "") ??
    `exit code ${result.code}`;
  return line.replace(/^(fatal|error|warning): /, "");
}

/**
 * Runs git and returns its standard output as text, with the final newline
 * dropped. A non-zero exit throws a {@linkcode SkiffError} (exit `ERROR`)
 * that quotes git.
 */
export async function gitText(args: readonly string[], options: GitOptions): Promise<string> {
  const result = await runGit(args, options);
  if (result.code !== 0) {
    throw new SkiffError(`git ${args[0]} failed: ${gitComplaint(result)}`, {
      exit: "ERROR",
      details: { git: args, code: result.code },
    });
  }
  return new TextDecoder().decode(result.stdout).replace(/\n$/, "");
}

/** Runs git and returns its standard output as text when it exits 0, else `null`. */
export async function gitMaybe(
  args: readonly string[],
  options: GitOptions,
): Promise<string | null> {
  const result = await runGit(args, options);
  if (result.code !== 0) return null;
  return new TextDecoder().decode(result.stdout).replace(/\n$/, "");
}

/** The pager git would use in `cwd` (`GIT_PAGER`, `core.pager`, `PAGER`, else `less`). */
export async function gitPager(cwd: string): Promise<string> {
  return await gitMaybe(["var", "GIT_PAGER"], { cwd, read: true, personal: true }) ?? "less";
}
