/**
 * The dashboard groups panes by host: this machine's projects first, then
 * each host of projects.toml as a group of its own with its panes, followed
 * live through the link (a remote turn shows without a keypress); a
 * remote pane's preview, Enter to open it over the link and the detach key
 * back; a host that cannot be reached is one row that says so. A host's
 * panes are read with `workspace.list`, or `pane.list` from an older Skiff.
 */

import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { openDash, rowWith, selectedRow } from "../helpers/dash.ts";
import { fakeAgentToml } from "../helpers/fake_agent.ts";
import { addToConfig, killLink, SSH_TEST, withHost } from "../helpers/hosts.ts";
import { makeCheckout } from "../helpers/checkout.ts";
import { BASH, type SkiffEnv, waitFor } from "../helpers/skiff.ts";
import type { TestTerminal } from "../helpers/terminal.ts";

/** Moves the selection down until its row matches `pattern`. */
async function select(term: TestTerminal, pattern: RegExp): Promise<void> {
  for (let i = 0; i < 30; i++) {
    if (pattern.test(selectedRow(term) ?? "")) return;
    const before = selectedRow(term);
    term.type("j");
    await waitFor("the selection to move", () => selectedRow(term) !== before, { timeout: 5000 })
      .catch(() => {});
  }
  throw new Error(`could not select ${pattern}:\n${term.text()}`);
}

Deno.test({
  name: "dash: panes grouped by host, a remote pane followed live, opened over the link, and " +
    "a host that cannot be reached in one row",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local) => {
      await addToConfig(
        local,
        ["[hosts.gone]", 'ssh = "127.0.0.1"', 'ssh_options = ["-p", "1"]', ""].join("\n"),
      );
      await local.ok(["new", "--name", "here", "--", ...BASH]);
      await local.ok(["new", "--host", "gpu1", "--agent", "fake", "--name", "rev", "--wait-ready"]);
      const term = await openDash(local, { ready: "here" });
      try {
        // This machine's panes, then each host as a group.
        await term.waitForText(/⇄ gpu1 +1 pane/, { timeout: 30_000 });
        // A host never reached: when its next try is comes first, then why (cut at the row's end).
        await term.waitForText(/⇄ gone +unreachable \(never reached, next try at \d/, {
          timeout: 30_000,
        });
        assertMatch(rowWith(term, /gpu1:rev/)!, /gpu1:rev +fake +idle/);
        const lines = term.text().split("\n");
        const here = lines.findIndex((l) => / here /.test(l));
        const group = lines.findIndex((l) => /⇄ gpu1/.test(l));
        const rev = lines.findIndex((l) => /gpu1:rev/.test(l));
        if (!(here < group && group < rev)) throw new Error(`not grouped:\n${term.text()}`);

        // Followed live: a turn on the host shows without a key.
        await local.ok(["send", "gpu1:rev", "SLOW 2500 review it", "--enter"]);
        await term.waitForText(/gpu1:rev +fake +working/, { timeout: 20_000 });
        await term.waitForText(/gpu1:rev +fake +idle +\d+s +turn-end/, { timeout: 30_000 });
        // The header counts the host's panes too.
        await term.waitForText(/ Skiff +2 panes · 1 unread/);

        // Its preview, then Enter opens it over the link, and the detach key comes back.
        await select(term, /gpu1:rev/);
        await term.waitForText(/rev \(gpu1:p1\) fake · idle/);
        await term.waitForText("│> Type a task");
        term.type("\r");
        await term.waitForText(/^> Type a task/m, { timeout: 30_000 });
        term.type("\x1c");
        await term.waitForText(/⇄ gpu1 +1 pane/, { timeout: 30_000 });

        // A task on the host's pane shows in the ledger view as `skiff ledger ls` shows it:
        // gone once its pane was killed there, not the state the ledger stores.
        const added = await local.ok(["ledger", "add", "--pane", "gpu1:rev", "--task", "Far task"]);
        const uid = added.split(" ")[0];
        await local.ok(["kill", "gpu1:rev"]);
        await term.waitForText(/ Skiff +1 pane /, { timeout: 30_000 });
        term.type("l");
        await term.waitForText(new RegExp(`${uid} gone .*Far task`), { timeout: 30_000 });
      } finally {
        term.kill();
      }
    }, { config: fakeAgentToml() });
  },
});

/** Lists the remote host's pane `rev` in the dashboard, as its host group shows it. */
async function listsRemotePane(local: SkiffEnv): Promise<void> {
  await local.ok(["new", "--name", "here", "--", ...BASH]);
  await local.ok(["new", "--host", "gpu1", "--agent", "fake", "--name", "rev", "--wait-ready"]);
  const term = await openDash(local, { ready: "here" });
  try {
    await term.waitForText(/⇄ gpu1 +1 pane/, { timeout: 30_000 });
    assertMatch(rowWith(term, /gpu1:rev/)!, /gpu1:rev +fake +idle/);
    // And again after a change there, read anew.
    await local.ok(["send", "gpu1:rev", "SLOW 1500 review it", "--enter"]);
    await term.waitForText(/gpu1:rev +fake +working/, { timeout: 20_000 });
  } finally {
    term.kill();
  }
}

Deno.test({
  name: "case 7: dash: another host's panes are listed with workspace.list, not pane.list",
  ...SSH_TEST,
  fn: async () => {
    // The host's pane.list fails: a list that asked it for the process in front of each pane
    // (a look in /proc per pane there) would show nothing.
    const host = await makeCheckout({
      version: "0.1.1",
      edits: [{
        path: "lib/daemon/server/methods.ts",
        find: `"pane.list": (params, ctx) => {`,
        replace:
          `"pane.list": (params, ctx) => {\n    if (params) throw new Error("pane.list is not for lists");`,
      }],
    });
    try {
      await withHost(listsRemotePane, { main: host.main, config: fakeAgentToml() });
    } finally {
      await host.remove();
    }
  },
});

Deno.test({
  name: "case 7: dash: a host whose Skiff predates workspace.list is listed with pane.list",
  ...SSH_TEST,
  fn: async () => {
    const old = await makeCheckout({
      version: "0.0.1",
      edits: [{
        path: "lib/daemon/server/workspace_methods.ts",
        find: `"workspace.list": (params, ctx) => {`,
        replace: `"workspace.none": (_params: unknown, ctx: any) => {`,
      }],
    });
    try {
      await withHost(listsRemotePane, { main: old.main, config: fakeAgentToml() });
    } finally {
      await old.remove();
    }
  },
});

Deno.test({
  name: "case 10: dash: a host that went down says when it was last reached and is tried next, " +
    "looked at again after each try",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local, remote) => {
      await local.ok(["new", "--name", "here", "--", ...BASH]);
      await local.ok(["new", "--host", "gpu1", "--name", "web", "--", ...BASH]);
      const term = await openDash(local, { ready: "here", cols: 220 });
      try {
        await term.waitForText(/⇄ gpu1 +1 pane/, { timeout: 30_000 });
        await remote.sshd.stop();
        await killLink(local, "gpu1");
        const times =
          /⇄ gpu1 +unreachable \(last reached (\d\d:\d\d:\d\d), next try at (\d\d:\d\d:\d\d)\): ssh/;
        const first = times.exec(await term.waitForText(times, { timeout: 30_000 }))!;
        // After that try failed too, the row tells of the next one (tries back off to a minute).
        await waitFor("a later next try", () => {
          const now = times.exec(term.text());
          return now !== null && now[2] !== first[2] && now[1] === first[1];
        }, { timeout: 75_000, interval: 200 });
      } finally {
        term.kill();
      }
    }, { config: fakeAgentToml() });
  },
});

/** The time of day `hh:mm:ss` (local, as the row shows it) at or after `from`, in ms. */
function clockTime(text: string, from: number): number {
  const [h, m, s] = text.split(":").map(Number);
  const at = new Date(from);
  at.setHours(h, m, s, 0);
  // Past midnight the next day's.
  return at.getTime() < from - 60_000 ? at.getTime() + 86_400_000 : at.getTime();
}

Deno.test({
  name:
    "case 10: dash: a host that is back stops reading unreachable, without the old ssh error, " +
    "as soon as its link is up again, long before the row's next try",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local, remote) => {
      await local.ok(["new", "--name", "here", "--", ...BASH]);
      await local.ok(["new", "--host", "gpu1", "--name", "web", "--", ...BASH]);
      const term = await openDash(local, { ready: "here", cols: 220 });
      try {
        await term.waitForText(/⇄ gpu1 +1 pane/, { timeout: 30_000 });
        await remote.sshd.stop();
        await killLink(local, "gpu1");
        // Down long enough that its next try is well off (the tries back off: 1 s, 2 s, 4 s…).
        const times =
          /⇄ gpu1 +unreachable \(last reached \d\d:\d\d:\d\d, next try at (\d\d:\d\d:\d\d)\)/;
        let nextTry = 0;
        await waitFor("a next try 6 s or more away", () => {
          const shown = times.exec(term.text());
          nextTry = shown ? clockTime(shown[1], Date.now()) : 0;
          return nextTry - Date.now() >= 6000;
        }, { timeout: 60_000, interval: 100 });

        // Back, and its link is made again at once (here by ls --all-hosts, which tries it now).
        await remote.sshd.start();
        const listed = await local.json<{ hosts: { host: string; state: string }[] }>([
          "ls",
          "--all-hosts",
        ]);
        assertEquals(listed.hosts.map((h) => [h.host, h.state]), [["gpu1", "up"]]);
        await term.waitForText(/⇄ gpu1 +1 pane/, { timeout: 3000 });
        assert(Date.now() < nextTry, "the row came back before the link's next try");
        const screen = term.text();
        assert(!/unreachable|ssh: /.test(screen), `no old why is left:\n${screen}`);
        assertMatch(rowWith(term, /gpu1:web/)!, /gpu1:web +- +shell/);

        // Down again and back with nothing to try it: the row follows the link's own next try.
        await remote.sshd.stop();
        await killLink(local, "gpu1");
        const down = times.exec(await term.waitForText(times, { timeout: 30_000 }))!;
        await remote.sshd.start();
        const due = clockTime(down[1], Date.now());
        await term.waitForText(/⇄ gpu1 +1 pane/, { timeout: Math.max(0, due - Date.now()) + 5000 });
        assert(!/unreachable|ssh: /.test(term.text()), `no old why is left:\n${term.text()}`);
      } finally {
        term.kill();
      }
    }, { config: fakeAgentToml() });
  },
});
