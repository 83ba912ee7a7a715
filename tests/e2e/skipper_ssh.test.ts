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
import { sshArgs, SSHD, startSshd } from "../helpers/sshd.ts";
import { allPanes, starts, useFakeSkipper } from "../helpers/skipper.ts";

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
      const term = await TestTerminal.start(sshArgs(sshd), {
        env: { ...skiff.env, SSH_AUTH_SOCK: "" },
        cwd: skiff.root,
        cols: 100,
        rows: 30,
      });
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
