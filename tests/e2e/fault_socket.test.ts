/**
 * The socket file removed under a running skiffd (a cleaned /tmp or runtime
 * folder): skiffd makes it again within seconds, so the next command reaches
 * it instead of starting a second skiffd; and when another skiffd took the
 * path meanwhile, the old one says why in the log and stops as in a stop,
 * leaving the new one's socket and workspace alone.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, pidAlive, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { DaemonClient } from "../../lib/client/client.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

async function panes(skiff: SkiffEnv): Promise<PaneInfo[]> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
}

/** The pids of every `skiff daemon run` process of this test's socket. */
function daemons(skiff: SkiffEnv): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0");
      const environ = Deno.readTextFileSync(`/proc/${entry.name}/environ`).split("\0");
      if (
        cmdline.includes("daemon") && cmdline.includes("run") &&
        environ.includes(`SKIFF_SOCKET=${skiff.socket}`) && pidAlive(Number(entry.name))
      ) {
        found.push(Number(entry.name));
      }
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/**
 * Runs `body` in a fresh Skiff; then stops every skiffd of its socket, also
 * one whose lock file went with its folder (the usual cleanup finds skiffd
 * through that file).
 */
async function withCleanedSkiff(body: (skiff: SkiffEnv) => Promise<void>): Promise<void> {
  await withSkiff(async (skiff) => {
    try {
      await body(skiff);
    } finally {
      for (const pid of daemons(skiff)) {
        const signal = (name: Deno.Signal) => {
          try {
            Deno.kill(pid, name);
          } catch {
            // It ended meanwhile.
          }
        };
        signal("SIGTERM");
        await waitFor("a left-over skiffd to stop", () => !pidAlive(pid))
          .catch(() => signal("SIGKILL"));
      }
    }
  });
}

Deno.test("the socket removed under skiffd: it makes it again, and the next command reaches the same skiffd", async () => {
  await withCleanedSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "keep", "--", ...BASH]);
    await skiff.ok(["keys", "keep", "export MARKER=same-shell", "Enter"]);
    const before = await panes(skiff);
    const pid = (await skiff.daemonPid())!;
    const connected = await DaemonClient.connect(skiff.socket);
    try {
      // Only the socket goes; the next command comes at once, before skiffd can notice.
      await Deno.remove(skiff.socket);
      const after = await panes(skiff);
      assertEquals(await skiff.daemonPid(), pid);
      // The command found no socket and started a skiffd, which finds the lock held and gives
      // up; on a loaded machine it may still be on its way out when the answer comes.
      await waitFor("a second skiffd to give up", () => daemons(skiff).length === 1);
      assertEquals(daemons(skiff), [pid], "one skiffd, the same one");
      assertEquals(after.map((p) => [p.id, p.pid]), before.map((p) => [p.id, p.pid]));
      await skiff.ok(["keys", "keep", "echo $MARKER", "Enter"]);
      await skiff.waitForScreen("keep", /^same-shell$/m);
      // A client connected before never noticed.
      assertEquals((await connected.call("pane.list")).panes.length, 1);
    } finally {
      connected.close();
    }
    const socket = await Deno.stat(skiff.socket);
    assert(socket.isSocket);
    assertEquals(socket.mode! & 0o777, 0o600);
    const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log"));
    assertMatch(log, /the socket .* was removed; making it again/);
  });
});

Deno.test("the whole runtime folder cleaned: skiffd makes its folder, lock, socket, log and skiff script again", async () => {
  await withCleanedSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "keep", "--", ...BASH]);
    const before = await panes(skiff);
    const pid = (await skiff.daemonPid())!;
    const run = join(skiff.root, "run");
    await Deno.remove(run, { recursive: true });
    await waitFor("skiffd to make its socket again", async () => {
      try {
        return (await Deno.stat(skiff.socket)).isSocket;
      } catch {
        return false;
      }
    });
    assertEquals(await skiff.daemonPid(), pid, "it wrote its pid into the new lock file");
    assertEquals((await panes(skiff)).map((p) => p.pid), before.map((p) => p.pid));
    assertEquals(daemons(skiff), [pid]);
    assertEquals((await Deno.stat(run)).mode! & 0o777, 0o700);
    // The panes' skiff script is back, and a skiff in a pane reaches this skiffd.
    await skiff.ok(["keys", "keep", 'skiff ls --json | grep -c \'"id": *"p1"\'', "Enter"]);
    await skiff.waitForScreen("keep", /^1$/m, { timeout: 20_000 });
    const log = await Deno.readTextFile(join(run, "skiffd.log"));
    assertMatch(log, /the lock file .* was removed; took it again/);
    // A second start sees it running.
    const again = await skiff.run(["daemon", "start"]);
    assertEquals(again.stdout, `skiffd is already running (pid ${pid})\n`);
  });
});

Deno.test("another skiffd took the cleaned path meanwhile: the old one logs why and stops as in a stop", async () => {
  await withCleanedSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "one", "--", ...BASH]);
    await skiff.ok(["new", "--name", "two", "--session", "crew", "--", ...BASH]);
    await skiff.ok(["mark", "crew", "role=builder"]);
    const before = await panes(skiff);
    const old = (await skiff.daemonPid())!;
    // The old skiffd sleeps through the cleaning, so a command starts another one first.
    Deno.kill(old, "SIGSTOP");
    try {
      await Deno.remove(join(skiff.root, "run"), { recursive: true });
      const after = await panes(skiff);
      const fresh = (await skiff.daemonPid())!;
      assert(fresh !== old, "a new skiffd owns the path");
      assertEquals(after.map((p) => [p.id, p.name]), before.map((p) => [p.id, p.name]));
    } finally {
      Deno.kill(old, "SIGCONT");
    }
    await waitFor("the old skiffd to stop", () => !pidAlive(old), { timeout: 15_000 });
    for (const pane of before) {
      await waitFor(`the old pane ${pane.name} to end`, () => !pidAlive(pane.pid!));
    }
    const fresh = (await skiff.daemonPid())!;
    assertEquals(daemons(skiff), [fresh], "only the new skiffd runs");
    // The old one left the new one's socket and workspace alone.
    const now = await panes(skiff);
    assertEquals(now.map((p) => [p.id, p.name, p.status]), [
      ["p1", "one", "running"],
      ["p2", "two", "running"],
    ]);
    assertEquals(await skiff.ok(["mark", "crew"]), "role=builder\n");
    await skiff.ok(["new", "--name", "three", "--", ...BASH]);
    const saved = JSON.parse(
      await Deno.readTextFile(join(skiff.root, "state", "skiffd.workspace.json")),
    );
    assertEquals(saved.panes.map((p: { name: string }) => p.name), ["one", "two", "three"]);
    const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log"));
    assertMatch(
      log,
      new RegExp(`another skiffd \\(pid ${fresh}\\) owns .* now: its lock file was removed`),
    );
    assertMatch(log, /stopping: another skiffd owns the socket/);
  });
});
