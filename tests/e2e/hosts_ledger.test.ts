/**
 * The ledger across hosts: `ledger add --pane HOST:PANE` stores the host,
 * liveness and the generation come from that host's skiffd, a task whose
 * host cannot be reached shows `unreachable` (never `gone`), `ledger send`
 * to it is refused with exit 17 and the row as it was, and a link lost in
 * the middle of a send leaves the task blocked with a note.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { fakeAgentToml } from "../helpers/fake_agent.ts";
import { killLink, SSH_TEST, waitForLink, withHost } from "../helpers/hosts.ts";
import { row } from "../helpers/ledger.ts";
import { waitFor } from "../helpers/skiff.ts";
import type { TaskJson } from "../../lib/ledger/json.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

type Listing = { liveness: string; unreachable: { host: string; why: string }[]; rows: TaskJson[] };

Deno.test({
  name: "ledger on a host's pane: the host stored, a send over the link, unreachable (not gone) " +
    "when the host goes, and a send refused (exit 17) with the row as it was",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local, remote) => {
      local.env.SKIFF_LEDGER = join(local.root, "agent", "ledger.db");
      await local.ok(["new", "--host", "gpu1", "--agent", "fake", "--name", "rev", "--wait-ready"]);
      const remotePane = (await remote.skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
      const sent = await local.json<{ row: TaskJson; exit: number }>([
        "ledger",
        "add",
        "--pane",
        "gpu1:rev",
        "--task",
        "SLOW 200 review the parser",
        "--send",
        "--enter",
      ]);
      assertEquals(sent.exit, 0);
      assertEquals(
        [sent.row.host, sent.row.pane, sent.row.pane_name, sent.row.state, sent.row.generation],
        ["gpu1", remotePane.id, "rev", "sent", remotePane.generation],
      );
      await remote.skiff.waitForScreen(remotePane.id, "review the parser");
      const pending = await local.json<{ row: TaskJson }>([
        "ledger",
        "add",
        "--pane",
        "gpu1:rev",
        "--task",
        "second task",
      ]);
      assertEquals([pending.row.host, pending.row.state], ["gpu1", "pending"]);

      const up = await local.json<Listing>(["ledger", "ls"]);
      assertEquals(up.liveness, "known");
      assertEquals(up.unreachable, []);
      assertEquals(up.rows.map((r) => [r.host, r.state]), [["gpu1", "sent"], ["gpu1", "pending"]]);
      const text = await local.ok(["ledger", "ls"]);
      assertMatch(text, /sent +gpu1:p1 \(rev\) +SLOW 200 review the parser/);
      const filtered = await local.json<Listing>(["ledger", "ls", "--pane", "gpu1:rev"]);
      assertEquals(filtered.rows.length, 2);
      assertEquals((await local.json<Listing>(["ledger", "ls", "--pane", "p1"])).rows, []);

      // The host goes away: its sshd stops and the SSH connection dies.
      await remote.sshd.stop();
      await killLink(local, "gpu1");
      await waitForLink(local, "gpu1", "unreachable");
      const started = performance.now();
      const down = await local.json<Listing>(["ledger", "ls"]);
      assert(performance.now() - started < 10_000, "ls does not wait on the host");
      assertEquals(down.rows.map((r) => [r.state, r.stored_state]), [
        ["unreachable", "sent"],
        ["unreachable", "pending"],
      ]);
      assertEquals(down.unreachable.map((u) => u.host), ["gpu1"]);
      assertMatch(down.unreachable[0].why, /Connection refused|connect/);
      const downText = await local.run(["ledger", "ls"]);
      assertMatch(downText.stdout, /unreachable \(pending\) +gpu1:p1 \(rev\)/);
      assertMatch(
        downText.stderr,
        /^skiff: host gpu1 is unreachable \(.*\): its open tasks show unreachable\n$/,
      );
      const shown = await local.json<{ row: TaskJson }>(["ledger", "show", pending.row.uid]);
      assertEquals(shown.row.state, "unreachable");

      const refused = await local.run(["ledger", "send", pending.row.uid, "--enter"]);
      assertEquals(refused.code, 17, refused.stderr);
      assertMatch(refused.stderr, /^skiff: Host gpu1 is unreachable: ssh: .*\n$/);
      const after = await row(local, ["show", pending.row.uid]);
      assertEquals([after.stored_state, after.sent_at, after.note], ["pending", null, null]);
    }, { config: fakeAgentToml() });
  },
});

Deno.test({
  name: "ledger: a link lost in the middle of a send leaves the task blocked with a note, " +
    "never pending",
  ...SSH_TEST,
  fn: async () => {
    // A long Enter delay: the link is killed after the text went in, before Enter.
    await withHost(async (local, remote) => {
      local.env.SKIFF_LEDGER = join(local.root, "agent", "ledger.db");
      await local.ok(["new", "--host", "gpu1", "--agent", "fake", "--name", "rev", "--wait-ready"]);
      const task = await row(local, ["add", "--pane", "gpu1:rev", "--task", "slow to submit"]);
      const send = local.run(["ledger", "send", task.uid, "--enter", "--json"]);
      await waitFor("the text in the remote input box", async () => {
        const screen = (await remote.skiff.run(["capture", "p1"])).stdout;
        return screen.includes("slow to submit");
      }, { timeout: 30_000, interval: 20 });
      await killLink(local, "gpu1");
      const result = await send;
      assertEquals(result.code, 17, result.stderr);
      const out = JSON.parse(result.stdout);
      assertEquals(out.row.state, "blocked");
      assertMatch(out.row.note, /the link to gpu1 was lost during the send/);
      assertMatch(JSON.parse(result.stderr).error.message, /it is now blocked/);
      const stored = await row(local, ["show", task.uid]);
      assertEquals(stored.stored_state, "blocked", "never back to pending");
    }, { config: fakeAgentToml({ enterDelayMs: 4000 }) });
  },
});
