/**
 * Two Skiffs and SSH between them, for the hosts tests: the "local" Skiff
 * the test drives, and a "remote" one with its own HOME, config, state and
 * socket behind a real sshd on a loopback port. The local Skiff reaches the
 * remote only over SSH, through `[hosts.NAME]`'s `ssh` (an alias of an
 * ssh_config given with `ssh_options = ["-F", …]`), `skiff` (a script that
 * runs this checkout's program) and `socket` keys: the remote's login has
 * no SKIFF_SOCKET of its own.
 *
 * @module
 */

import { join } from "node:path";
import { MAIN, SkiffEnv, waitFor } from "./skiff.ts";
import { hasSshd, type SshServer, startSshd } from "./sshd.ts";

/** A remote Skiff behind sshd. */
export interface RemoteHost {
  /** The host's name in the local projects.toml. */
  name: string;
  /** The remote Skiff's folders and environment (for checks from the test's side only). */
  skiff: SkiffEnv;
  /** The sshd in front of it. */
  sshd: SshServer;
  /** The ssh_config with the host's alias. */
  sshConfig: string;
  /** The remote `skiff` script. */
  program: string;
  /** The remote skiffd's socket. */
  socket: string;
  /** The `[hosts.NAME]` table for the local projects.toml. */
  toml: string;
}

/** Options for {@linkcode startRemote}. */
export interface RemoteOptions {
  /** The host's name (default `gpu1`). */
  name?: string;
  /** Another checkout's main.ts for the remote program (see `checkout.ts`). */
  main?: string;
  /** Lines for the remote's own projects.toml. */
  config?: string[];
}

/** Whether this machine can run the hosts tests (sshd installed). */
export const CAN_SSH = hasSshd();

/** Options every hosts test passes to `Deno.test`: left out without sshd, no sanitizers. */
export const SSH_TEST = { ignore: !CAN_SSH, sanitizeOps: false, sanitizeResources: false } as const;

/** Starts a remote Skiff behind its own sshd; stop it with {@linkcode stopRemote}. */
export async function startRemote(options: RemoteOptions = {}): Promise<RemoteHost> {
  const name = options.name ?? "gpu1";
  const skiff = await SkiffEnv.create();
  const dir = join(skiff.root, "ssh");
  await Deno.mkdir(dir);
  const { SKIFF_SOCKET: socket, ...login } = skiff.env;
  const sshd = await startSshd(dir, login);
  const sshConfig = await sshd.clientConfig(join(dir, "ssh_config"), name);
  const program = join(skiff.root, "skiff");
  await Deno.writeTextFile(
    program,
    `#!/bin/sh\nexec '${Deno.execPath()}' run -A -q '${options.main ?? MAIN}' "$@"\n`,
  );
  await Deno.chmod(program, 0o755);
  if (options.config) {
    await Deno.mkdir(skiff.env.SKIFF_CONFIG_DIR, { recursive: true });
    await Deno.writeTextFile(skiff.configFile, options.config.join("\n") + "\n");
  }
  const toml = [
    `[hosts.${name}]`,
    `ssh = "${name}"`,
    `skiff = "${program}"`,
    `socket = "${socket}"`,
    `ssh_options = ["-F", "${sshConfig}"]`,
    "",
  ].join("\n");
  return { name, skiff, sshd, sshConfig, program, socket, toml };
}

/** Stops the remote's sshd and skiffd and removes its folders. */
export async function stopRemote(remote: RemoteHost): Promise<void> {
  await remote.sshd.stop();
  await remote.skiff.dispose();
}

/** Appends `text` to the local Skiff's projects.toml. */
export async function addToConfig(local: SkiffEnv, text: string): Promise<void> {
  await Deno.mkdir(local.env.SKIFF_CONFIG_DIR, { recursive: true });
  let before = "";
  try {
    before = await Deno.readTextFile(local.configFile);
  } catch {
    // A new file.
  }
  await Deno.writeTextFile(local.configFile, `${before}${before ? "\n" : ""}${text}`);
}

/**
 * Runs `body` with a local Skiff that knows the remote host, and cleans up
 * both (and every ssh the local skiffd started).
 */
export async function withHost(
  body: (local: SkiffEnv, remote: RemoteHost) => Promise<void>,
  options: RemoteOptions = {},
): Promise<void> {
  const remote = await startRemote(options);
  const local = await SkiffEnv.create();
  try {
    await addToConfig(local, remote.toml);
    await body(local, remote);
  } finally {
    await local.dispose();
    await stopRemote(remote);
  }
}

/** Waits until `skiff host ls --json` says host `name`'s link is `state`. */
export async function waitForLink(
  local: SkiffEnv,
  name: string,
  state: string,
  timeout = 30_000,
): Promise<void> {
  await waitFor(`host ${name}'s link to be ${state}`, async () => {
    const { hosts } = await local.json<{ hosts: { name: string; link: string }[] }>([
      "host",
      "ls",
    ]);
    return hosts.find((h) => h.name === name)?.link === state;
  }, { timeout, interval: 200 });
}

/**
 * A TCP listener on a loopback port that accepts connections and never says
 * a word: an SSH server that hangs. Close it when done.
 */
export function hangingListener(): { port: number; close: () => void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    try {
      for await (const conn of listener) held.push(conn);
    } catch {
      // Closed.
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close: () => {
      listener.close();
      for (const conn of held) {
        try {
          conn.close();
        } catch {
          // Closed already.
        }
      }
    },
  };
}

/** The pid of the ssh that holds the local skiffd's link to `name`, if one runs. */
export async function linkPid(local: SkiffEnv, name: string): Promise<number | undefined> {
  try {
    const pid = Number((await Deno.readTextFile(linkFile(local, name, "pid"))).trim());
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** A file of the local skiffd's link to `name`: `pid`, `ctl` or `sock`. */
export function linkFile(local: SkiffEnv, name: string, ext: "pid" | "ctl" | "sock"): string {
  return join(local.root, "run", "skiffd.hosts", `${name}.${ext}`);
}

/** Kills the ssh of the link to `name` (as a network that dies would end it) and returns its pid. */
export async function killLink(local: SkiffEnv, name: string): Promise<number> {
  const pid = await waitFor(`the link to ${name}`, () => linkPid(local, name));
  Deno.kill(pid, "SIGKILL");
  return pid;
}
