/**
 * A real OpenSSH server on a loopback port, for tests and the bench: Debian's
 * sshd run as the current user with a throwaway host key and user key, and a
 * config that forces an environment on every login (so a login lands in a
 * test's own HOME, config and state folders). {@linkcode SshServer.clientConfig}
 * writes an `ssh_config` with a host alias for it, as a person's
 * `~/.ssh/config` would have.
 *
 * @module
 */

import { join } from "node:path";
import { waitFor } from "./skiff.ts";

/** Where Debian's sshd lives. */
export const SSHD = "/usr/sbin/sshd";

/** Whether sshd is installed here. */
export function hasSshd(): boolean {
  try {
    return Deno.statSync(SSHD).isFile;
  } catch {
    return false;
  }
}

async function run(program: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(program, { args, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`${program} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

/** A loopback TCP port that was free a moment ago. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** A value for sshd_config's SetEnv, quoted. */
function quoted(value: string): string {
  return `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/** A running sshd; see {@linkcode startSshd}. */
export interface SshServer {
  /** Its loopback port. */
  port: number;
  /** The user it lets in (the current one). */
  user: string;
  /** The private key that logs in. */
  key: string;
  /** `user@127.0.0.1`. */
  dest: string;
  /** Options for `ssh` that reach this server with the key and no host key prompts. */
  options: string[];
  /** What sshd wrote to its stderr so far. */
  log(): string;
  /**
   * Writes an ssh_config at `path` in which `Host alias` reaches this
   * server, and returns the path (for `ssh -F`).
   */
  clientConfig(path: string, alias: string): Promise<string>;
  /** Stops the server; logins already made keep running (as with a real sshd). */
  stop(): Promise<void>;
  /** Starts a stopped server again, on the same port with the same keys. */
  start(): Promise<void>;
}

/** The running sshd, by the name the dashboard's test knows it. */
export type Sshd = SshServer;

/** The `ssh` command line that logs in to `sshd` with a terminal. */
export function sshArgs(sshd: SshServer): string[] {
  return ["ssh", "-tt", ...sshd.options, sshd.dest];
}

/**
 * Starts sshd for this user on a loopback port, in `dir` (its keys, config
 * and pid file go there). Every login gets exactly `env`.
 */
export async function startSshd(dir: string, env: Record<string, string>): Promise<SshServer> {
  await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "host_key")]);
  await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "user_key")]);
  await Deno.copyFile(join(dir, "user_key.pub"), join(dir, "authorized_keys"));
  const user = (await run("id", ["-un"])).trim();
  if (Deno.uid() === 0) {
    // sshd run by root wants its privilege separation folder.
    await Deno.mkdir("/run/sshd", { recursive: true, mode: 0o755 });
  }
  const port = freePort();
  const config = [
    `Port ${port}`,
    "ListenAddress 127.0.0.1",
    `HostKey ${join(dir, "host_key")}`,
    `PidFile ${join(dir, "sshd.pid")}`,
    `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
    "PubkeyAuthentication yes",
    "PasswordAuthentication no",
    "KbdInteractiveAuthentication no",
    "UsePAM no",
    "StrictModes no",
    "PermitRootLogin yes",
    `AllowUsers ${user}`,
    `SetEnv ${Object.entries(env).map(([k, v]) => `${k}=${quoted(v)}`).join(" ")}`,
    "",
  ].join("\n");
  await Deno.writeTextFile(join(dir, "sshd_config"), config);
  const log: string[] = [];
  let child: Deno.ChildProcess | undefined;
  const listen = async () => {
    child = new Deno.Command(SSHD, {
      args: ["-D", "-e", "-f", join(dir, "sshd_config")],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const running = child;
    (async () => {
      for await (const chunk of running.stderr.pipeThrough(new TextDecoderStream())) {
        log.push(chunk);
      }
    })();
    await waitFor("sshd to listen", async () => {
      try {
        (await Deno.connect({ hostname: "127.0.0.1", port })).close();
        return true;
      } catch {
        return false;
      }
    }, { timeout: 10_000 }).catch((error) => {
      throw new Error(`${error.message}\n--- sshd ---\n${log.join("")}`);
    });
  };
  await listen();
  const key = join(dir, "user_key");
  const options = [
    "-p",
    String(port),
    "-i",
    key,
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "IdentitiesOnly=yes",
    "-o",
    "LogLevel=ERROR",
  ];
  return {
    port,
    user,
    key,
    dest: `${user}@127.0.0.1`,
    options,
    log: () => log.join(""),
    clientConfig: async (path, alias) => {
      await Deno.writeTextFile(
        path,
        [
          `Host ${alias}`,
          "  HostName 127.0.0.1",
          `  Port ${port}`,
          `  User ${user}`,
          `  IdentityFile ${key}`,
          "  IdentitiesOnly yes",
          "  StrictHostKeyChecking no",
          "  UserKnownHostsFile /dev/null",
          "  LogLevel ERROR",
          "",
        ].join("\n"),
      );
      return path;
    },
    stop: async () => {
      if (!child) return;
      const running = child;
      child = undefined;
      try {
        running.kill("SIGTERM");
      } catch {
        // Gone already.
      }
      await running.status;
    },
    start: async () => {
      if (!child) await listen();
    },
  };
}
