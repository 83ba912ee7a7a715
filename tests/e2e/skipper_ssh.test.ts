/**
 * `skiff skipper` through a real SSH login to this machine: the test starts
 * Debian's sshd on a loopback port with a throwaway host key and user key,
 * as the current user, with a config that forces the test's SKIFF_*
 * environment on the login. It opens the Skiff agent, detaches, logs out,
 * and finds the agent still running.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { MAIN, pidAlive, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { TestTerminal } from "../helpers/terminal.ts";
import { allPanes, starts, useFakeSkipper } from "../helpers/skipper.ts";

const SSHD = "/usr/sbin/sshd";

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

/** Starts sshd for this user on a loopback port; the login gets exactly `env`. */
async function startSshd(
  dir: string,
  env: Record<string, string>,
): Promise<{ port: number; user: string; key: string; stop: () => Promise<void> }> {
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

Deno.test({
  name: "skipper over a real SSH login: open, detach, log out, and the agent keeps running",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    assert(
      await Deno.stat(SSHD).then(() => true, () => false),
      `${SSHD} is missing: apt-get install openssh-server (.ci/run does)`,
    );
    await withSkiff(async (skiff: SkiffEnv) => {
      await useFakeSkipper(skiff);
      const sshDir = join(skiff.root, "ssh");
      await Deno.mkdir(sshDir);
      const sshd = await startSshd(sshDir, skiff.env);
      const term = await TestTerminal.start([
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
      ], { env: { ...skiff.env, SSH_AUTH_SOCK: "" }, cwd: skiff.root, cols: 100, rows: 30 });
      try {
        // A shell on the far side: print a marker so we know the login is ready.
        await waitFor("the login shell", () => {
          term.type("echo LOGGED-$((6*7))\r");
          return /LOGGED-42/.test(term.text());
        }, { timeout: 20_000, interval: 1000 });
        term.type(`'${Deno.execPath()}' run -A -q '${MAIN}' skipper\r`);
        await term.waitForText(/Fake Agent 1\.0/, { timeout: 30_000 });
        const [pane] = await allPanes(skiff);
        await skiff.ok(["wait", pane.id, "--until", "idle", "--timeout", "30"]);
        term.type("\x1c");
        await term.waitForText(/\[detached from Skipper \(p1\)/);
        term.type("exit\r");
        assertEquals(await term.exited, 0, "the login ended");
      } finally {
        term.kill();
        await sshd.stop();
      }
      // The login is gone; skiffd and the agent are not.
      const pid = await skiff.daemonPid();
      assert(pid && pidAlive(pid), "skiffd outlived the login");
      const [after] = await allPanes(skiff);
      assertEquals([after.status, after.agent, after.state], ["running", "fake", "idle"]);
      assertEquals(await starts(skiff), ["start "]);
      const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log"));
      assertMatch(log, /pane p1 \(Skipper\) started/);
    });
  },
});
