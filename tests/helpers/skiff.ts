/**
 * Test harness: runs the real `skiff` program in an isolated temp HOME,
 * config, state and socket, and waits on conditions with timeouts.
 *
 * @module
 */

import { join } from "node:path";

/** The entry of the program under test. */
export const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** The repository root. */
export const ROOT = new URL("../../", import.meta.url).pathname;

const REAL_HOME = Deno.env.get("HOME") ?? "/root";
const DENO_DIR = Deno.env.get("DENO_DIR") ?? join(REAL_HOME, ".cache", "deno");

/** The result of one `skiff` run. */
export interface RunResult {
  /** Exit code. */
  code: number;
  /** Standard output as text. */
  stdout: string;
  /** Standard error as text. */
  stderr: string;
}

/** Options for {@linkcode waitFor}. */
export interface WaitOptions {
  /** Give up after this many ms (default 10 000). */
  timeout?: number;
  /** Poll interval in ms (default 50). */
  interval?: number;
}

/**
 * Polls `check` until it returns a value other than `undefined`/`false`, or
 * throws after the timeout with `what` and the last value seen.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  options: WaitOptions = {},
): Promise<T> {
  const timeout = options.timeout ?? 10_000;
  const deadline = Date.now() + timeout;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out after ${timeout} ms waiting for ${what}${lastError ? `: ${lastError}` : ""}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.interval ?? 50));
  }
}

/** An isolated Skiff installation: its own HOME, config, state and socket. */
export class SkiffEnv {
  /** The temp root. */
  readonly root: string;
  /** The environment every `skiff` run gets. */
  readonly env: Record<string, string>;

  private constructor(root: string, env: Record<string, string>) {
    this.root = root;
    this.env = env;
  }

  /** Makes fresh folders and an environment that points only at them. */
  static async create(extraEnv: Record<string, string> = {}): Promise<SkiffEnv> {
    const root = await Deno.makeTempDir({ prefix: "skiff-test-" });
    const home = join(root, "home");
    await Deno.mkdir(home);
    const env: Record<string, string> = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: home,
      DENO_DIR,
      DENO_NO_UPDATE_CHECK: "1",
      SKIFF_CONFIG_DIR: join(root, "config"),
      SKIFF_STATE_DIR: join(root, "state"),
      SKIFF_SOCKET: join(root, "run", "skiffd.sock"),
      SHELL: "/bin/bash",
      TERM: "xterm-256color",
      LANG: "C.UTF-8",
      ...extraEnv,
    };
    return new SkiffEnv(root, env);
  }

  /** The socket path. */
  get socket(): string {
    return this.env.SKIFF_SOCKET;
  }

  /** The config file path. */
  get configFile(): string {
    return join(this.env.SKIFF_CONFIG_DIR, "projects.toml");
  }

  /**
   * Runs `skiff args…` to completion; `main` runs another checkout's program
   * (see `checkout.ts`).
   */
  async run(
    args: string[],
    options: { stdin?: string; cwd?: string; main?: string } = {},
  ): Promise<RunResult> {
    const command = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "-q", options.main ?? MAIN, ...args],
      env: this.env,
      clearEnv: true,
      cwd: options.cwd ?? this.env.HOME,
      stdin: options.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
    });
    const child = command.spawn();
    if (options.stdin !== undefined) {
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(options.stdin));
      await writer.close();
    }
    return decodeOutput(await child.output());
  }

  /** Runs `skiff args…` and returns stdout; throws with stderr when the exit code is not 0. */
  async ok(args: string[], options: { cwd?: string; main?: string } = {}): Promise<string> {
    const result = await this.run(args, options);
    if (result.code !== 0) {
      throw new Error(
        `skiff ${
          args.join(" ")
        } exited ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
      );
    }
    return result.stdout;
  }

  /**
   * Runs `skiff args… --json` and parses stdout. The flag goes before a `--`,
   * whose words are the pane's command's.
   */
  async json<T = Record<string, unknown>>(
    args: string[],
    options: { cwd?: string; main?: string } = {},
  ): Promise<T> {
    const cut = args.indexOf("--");
    const flagged = cut === -1
      ? [...args, "--json"]
      : [...args.slice(0, cut), "--json", ...args.slice(cut)];
    return JSON.parse(await this.ok(flagged, options)) as T;
  }

  /** Waits until `skiff capture PANE` matches `pattern`; returns the capture. */
  async waitForScreen(
    pane: string,
    pattern: RegExp | string,
    options: WaitOptions = {},
  ): Promise<string> {
    let last = "";
    try {
      return await waitFor(`pane ${pane} to show ${pattern}`, async () => {
        const result = await this.run(["capture", pane]);
        last = result.stdout;
        const hit = typeof pattern === "string" ? last.includes(pattern) : pattern.test(last);
        return hit ? last : undefined;
      }, options);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- last screen ---\n${last}`);
    }
  }

  /** The daemon's pid from its lock file, if it wrote one. */
  async daemonPid(): Promise<number | undefined> {
    try {
      const text = await Deno.readTextFile(join(this.root, "run", "skiffd.lock"));
      const pid = Number(text.trim());
      return pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  /** The watcher's pid from its lock file, if one wrote it. */
  async watcherPid(): Promise<number | undefined> {
    try {
      const text = await Deno.readTextFile(join(this.root, "run", "skiffd.watch.lock"));
      const pid = Number(text.trim());
      return pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Whether process `pid` runs with this test's folders: a pid in a lock file
   * may have ended and been given to an unrelated process since.
   */
  #ours(pid: number): boolean {
    try {
      return Deno.readTextFileSync(`/proc/${pid}/environ`).includes(this.root);
    } catch {
      // No /proc (macOS): trust the lock file.
      return Deno.build.os !== "linux";
    }
  }

  /** Stops the daemon and the watcher (by signal, so a broken one still goes) and removes the folders. */
  async dispose(): Promise<void> {
    const watcher = await this.watcherPid();
    if (watcher && pidAlive(watcher) && this.#ours(watcher)) {
      try {
        Deno.kill(watcher, "SIGKILL");
      } catch {
        // Gone already.
      }
    }
    const pid = await this.daemonPid();
    if (pid && this.#ours(pid)) {
      try {
        Deno.kill(pid, "SIGTERM");
        await waitFor("the daemon to exit", () => !pidAlive(pid), { timeout: 5000 }).catch(() => {
          Deno.kill(pid, "SIGKILL");
        });
      } catch {
        // Not running.
      }
    }
    await Deno.remove(this.root, { recursive: true }).catch(() => {});
  }
}

/** A finished command's exit code and its output as text. */
export function decodeOutput(output: Deno.CommandOutput): RunResult {
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** Whether `name --version` runs here (a tool some tests need, such as setpriv). */
export function hasCommand(name: string): boolean {
  try {
    return new Deno.Command(name, { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** Whether process `pid` exists and is not a zombie. */
export function pidAlive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/**
 * The workspace file of the default socket and anything named after it (the
 * temporary files of saves, set-aside files) in the state folder `dir`.
 */
export function workspaceFiles(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name)
    .filter((name) => name.startsWith("skiffd.workspace.json")).sort();
}

/** Runs `body` with a fresh {@linkcode SkiffEnv} and always cleans up. */
export async function withSkiff(
  body: (skiff: SkiffEnv) => Promise<void>,
  extraEnv: Record<string, string> = {},
): Promise<void> {
  const skiff = await SkiffEnv.create(extraEnv);
  try {
    await body(skiff);
  } finally {
    await skiff.dispose();
  }
}

/** A bash with no profile or rc files, for predictable screens. */
export const BASH = ["bash", "--norc", "--noprofile"];
