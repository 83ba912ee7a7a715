/**
 * A real sshd for tests: Debian's sshd on a loopback port with a throwaway
 * host key and user key, run as the current user, with a config that forces
 * the test's environment on every login.
 *
 * @module
 */

import { join } from "node:path";
import { waitFor } from "./skiff.ts";

/** Debian's sshd. */
export const SSHD = "/usr/sbin/sshd";

async function run(program: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(program, { args, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`${program} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** A value for sshd_config's SetEnv, quoted. */
function quoted(value: string): string {
  return `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/** A running sshd: where to log in, and how to stop it. */
export interface Sshd {
  /** The loopback port. */
  port: number;
  /** The user to log in as. */
  user: string;
  /** The private key that logs in. */
  key: string;
  /** Stops sshd. */
  stop: () => Promise<void>;
}

/** Starts sshd for this user on a loopback port; the login gets exactly `env`. */
export async function startSshd(
  dir: string,
  env: Record<string, string>,
): Promise<Sshd> {
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
  const child = new Deno.Command(SSHD, {
    args: ["-D", "-e", "-f", join(dir, "sshd_config")],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const log: string[] = [];
  (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) log.push(chunk);
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
  return {
    port,
    user,
    key: join(dir, "user_key"),
    stop: async () => {
      try {
        child.kill("SIGTERM");
      } catch {
        // Gone already.
      }
      await child.status;
    },
  };
}

/** The `ssh` command line that logs in to `sshd` with a terminal. */
export function sshArgs(sshd: Sshd): string[] {
  return [
    "ssh",
    "-tt",
    "-i",
    sshd.key,
    "-p",
    String(sshd.port),
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "IdentitiesOnly=yes",
    "-o",
    "LogLevel=ERROR",
    `${sshd.user}@127.0.0.1`,
  ];
}
