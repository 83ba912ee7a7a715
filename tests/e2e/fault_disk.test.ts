/**
 * A full disk while skiffd saves the workspace, through the documented fault
 * switch `SKIFF_FAULT_FULL_DISK`: the old file stays whole, the failure is
 * logged once, skiffd keeps serving, and the next save after the disk frees
 * up writes everything.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, pidAlive, waitFor, withSkiff, workspaceFiles } from "../helpers/skiff.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import type { DaemonStatus } from "../../lib/protocol/daemon.ts";

function logLines(text: string, pattern: RegExp): string[] {
  return text.split("\n").filter((line) => pattern.test(line));
}

Deno.test("a full disk during workspace saves: the old file stays whole, one log line, the next save succeeds", async () => {
  const root = await Deno.makeTempDir({ prefix: "skiff-disk-" });
  const full = join(root, "disk-is-full");
  try {
    await withSkiff(async (skiff) => {
      const state = join(skiff.root, "state");
      const file = join(state, "skiffd.workspace.json");
      await skiff.ok(["new", "--name", "first", "--", ...BASH]);
      await skiff.ok(["mark", "first", "stage=before"]);
      const before = await Deno.readFile(file);
      assertMatch(await skiff.ok(["daemon", "status"]), /, 1 pane \(1 running\), socket /);

      // The disk fills up. Every change still works in skiffd; none reaches the file.
      await Deno.writeTextFile(full, "");
      await skiff.ok(["new", "--name", "second", "--", ...BASH]);
      await skiff.ok(["rename", "first", "renamed"]);
      await skiff.ok(["mark", "second", "stage=during"]);
      await skiff.ok(["keys", "renamed", "echo still-typing", "Enter"]);
      await skiff.waitForScreen("renamed", /^still-typing$/m);
      assertEquals(await Deno.readFile(file), before, "the old workspace is byte for byte");
      assertEquals(workspaceFiles(state), ["skiffd.workspace.json"], "no temporary file is left");

      const status = await skiff.json<DaemonStatus>(["daemon", "status"]);
      assertMatch(status.workspace_error ?? "", /No space left on device/);
      const text = await skiff.ok(["daemon", "status"]);
      assertMatch(text, /, 2 panes \(2 running\), socket /);
      assertMatch(text, /\nthe workspace is not saved: No space left on device/);
      const pid = status.pid;
      const logFile = join(skiff.root, "run", "skiffd.log");
      const failures = logLines(await Deno.readTextFile(logFile), /cannot save the workspace/);
      assertEquals(failures.length, 1, `one line for several failed saves:\n${failures}`);
      assertMatch(failures[0], /No space left on device.*the old file stays/);

      // Space again: the next save (skiffd retries on its own) writes every change.
      await Deno.remove(full);
      const saved = await waitFor("the workspace to be saved again", async () => {
        const data = JSON.parse(await Deno.readTextFile(file));
        return data.panes.length === 2 ? data : undefined;
      });
      assertEquals(
        saved.panes.map((p: { id: string; name: string }) => [p.id, p.name]),
        [["p1", "renamed"], ["p2", "second"]],
      );
      // The line is written once the file is in place: a reader may see the file first.
      const log = await waitFor("the log to say the workspace is saved again", async () => {
        const text = await Deno.readTextFile(logFile);
        return /workspace saved again after \d+ failed save\(s\)/.test(text) ? text : undefined;
      });
      assertEquals(logLines(log, /cannot save the workspace/).length, 1, log);
      assertEquals((await skiff.json<DaemonStatus>(["daemon", "status"])).workspace_error, null);
      assertEquals(await skiff.daemonPid(), pid, "the same skiffd served throughout");

      // The saved file is whole: a kill -9 restart brings back what was made on the full disk.
      Deno.kill(pid, "SIGKILL");
      await waitFor("skiffd to die", () => !pidAlive(pid));
      const panes = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
      assertEquals(panes.map((p) => [p.id, p.name]), [["p1", "renamed"], ["p2", "second"]]);
      assertEquals(await skiff.ok(["mark", "second"]), "stage=during\n");
      assert(panes.every((p) => p.status === "running"));
    }, { SKIFF_FAULT_FULL_DISK: full });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** Whether this process may make a mount namespace with its own tmpfs (root on Linux). */
function canMountTmpfs(): boolean {
  if (Deno.build.os !== "linux" || Deno.uid() !== 0) return false;
  try {
    return new Deno.Command("unshare", {
      args: ["-m", "--propagation", "private", "sh", "-c", "mount -t tmpfs tmpfs /mnt"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

/** Fills the file system of `dir` with one file until it is full; returns the file. */
async function fill(dir: string): Promise<string> {
  const path = join(dir, "filler");
  using file = await Deno.open(path, { write: true, create: true });
  const chunk = new Uint8Array(4096);
  try {
    for (;;) await file.write(chunk);
  } catch (error) {
    assertMatch(String(error), /No space left on device/);
  }
  return path;
}

Deno.test({
  name: "a real full file system (a small tmpfs for the state folder) is survived the same way",
  ignore: !canMountTmpfs(),
  fn: async () => {
    await withSkiff(async (skiff) => {
      const state = skiff.env.SKIFF_STATE_DIR;
      await Deno.mkdir(state, { recursive: true });
      // skiffd runs in a mount namespace of its own where the state folder is a 256 KB tmpfs.
      const main = new URL("../../main.ts", import.meta.url).pathname;
      const daemon = new Deno.Command("unshare", {
        args: [
          "-m",
          "--propagation",
          "private",
          "sh",
          "-c",
          `mount -t tmpfs -o size=256k,mode=0700 tmpfs "$SKIFF_STATE_DIR" && exec "$0" run -A -q "$1" daemon run`,
          Deno.execPath(),
          main,
        ],
        env: skiff.env,
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      try {
        await waitFor(
          "skiffd in its namespace",
          async () => (await skiff.daemonPid()) !== undefined,
        );
        const pid = (await skiff.daemonPid())!;
        await waitFor("skiffd to answer", async () => {
          const status = await skiff.run(["daemon", "status", "--json"]);
          return status.code === 0 && JSON.parse(status.stdout).pid === pid;
        });
        // Its view of the state folder.
        const seen = `/proc/${pid}/root${state}`;
        await skiff.ok(["new", "--name", "first", "--", ...BASH]);
        const file = join(seen, "skiffd.workspace.json");
        const before = await Deno.readFile(file);
        const filler = await fill(seen);

        await skiff.ok(["new", "--name", "second", "--", ...BASH]);
        await skiff.ok(["rename", "first", "renamed"]);
        assertEquals(await Deno.readFile(file), before, "the old workspace is byte for byte");
        assertEquals(workspaceFiles(seen), ["skiffd.workspace.json"], "no temporary file is left");
        const status = await skiff.json<DaemonStatus>(["daemon", "status"]);
        assertMatch(status.workspace_error ?? "", /No space left on device \(os error 28\)/);
        const log = join(skiff.root, "run", "skiffd.log");
        assertEquals(logLines(await Deno.readTextFile(log), /cannot save the workspace/).length, 1);

        await Deno.remove(filler);
        await waitFor("the workspace to be saved again", async () => {
          const data = JSON.parse(await Deno.readTextFile(file));
          return data.panes.map((p: { name: string }) => p.name).join() === "renamed,second";
        });
        assertEquals((await skiff.json<DaemonStatus>(["daemon", "status"])).pid, pid);
        await skiff.ok(["daemon", "stop"]);
        assertEquals((await daemon.status).code, 0);
      } finally {
        try {
          daemon.kill("SIGKILL");
        } catch {
          // Stopped already.
        }
        await daemon.status;
      }
    });
  },
});
