/**
 * The watcher across hosts: a ledger task on a pane of another host, through
 * a turn end there, to the watcher's line in the local Skiff agent with the
 * host in it (`[watch] pane gpu1:rev UID is idle. …`), typed only into the
 * local Skiff agent with the same guards; a host that goes away is one line
 * to the agent and one more when it is back, never one per retry.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { fakeAgentToml } from "../helpers/fake_agent.ts";
import { addToConfig, killLink, SSH_TEST, waitForLink, withHost } from "../helpers/hosts.ts";
import { waitFor } from "../helpers/skiff.ts";
import { agentPrompts, sendTask, startWatchRig, waitPrompt } from "../helpers/watch.ts";
import { join } from "node:path";

const READ = "Read it, then mark it seen.";

Deno.test({
  name: "watcher: a remote turn end reaches the local Skiff agent with the host in the line; " +
    "a host that goes away is one line, and one more when it is back",
  ...SSH_TEST,
  fn: async () => {
    await withHost(async (local, remote) => {
      const rig = await startWatchRig(local);
      // The rig writes its own projects.toml: the host goes back in.
      await addToConfig(local, remote.toml);
      await local.ok(["new", "--host", "gpu1", "--agent", "fake", "--name", "rev", "--wait-ready"]);

      const uid = await sendTask(local, "gpu1:rev", "Review the parser");
      const idle = `[watch] pane gpu1:rev ${uid} is idle. ${READ}`;
      await waitPrompt(rig, idle, 30_000);
      // Only the local Skiff agent got it: the remote pane got its task and nothing else.
      const remoteScreen = (await remote.skiff.run(["capture", "p1"])).stdout;
      assert(!remoteScreen.includes("[watch]"), remoteScreen);
      await local.ok(["seen", "gpu1:rev"]);

      // The host goes away: its sshd stops and the SSH connection dies.
      await remote.sshd.stop();
      await killLink(local, "gpu1");
      const down = "[watch] host gpu1 is unreachable: 1 task waits.";
      await waitPrompt(rig, down, 60_000);
      // The link is tried again and again meanwhile; the agent hears it once.
      const log = join(local.root, "run", "skiffd.log");
      await waitFor("two more tries of the link", async () => {
        const text = await Deno.readTextFile(log);
        return (text.match(/host gpu1: unreachable: .*next try in/g) ?? []).length >= 3;
      }, { timeout: 60_000, interval: 200 });
      assertEquals((await agentPrompts(rig)).filter((p) => p.includes(down)).length, 1);

      // It comes back: one line, and the agent is told of it once.
      await remote.sshd.start();
      const back = "[watch] host gpu1 is back: 1 task waits.";
      await waitPrompt(rig, back, 90_000);
      await waitForLink(local, "gpu1", "up");
      const prompts = await agentPrompts(rig);
      assertEquals(prompts.filter((p) => p.includes(down)).length, 1, prompts.join("\n"));
      assertEquals(prompts.filter((p) => p.includes(back)).length, 1, prompts.join("\n"));

      // Followed again after it came back: the next turn end there is a line.
      const again = await sendTask(local, "gpu1:rev", "Review the lexer");
      await waitPrompt(
        rig,
        `[watch] pane gpu1:rev ${again} is idle. ${READ}`,
        30_000,
      );
      const watchLog = await Deno.readTextFile(rig.watchLog);
      assert(/host gpu1: following its panes of open tasks/.test(watchLog), watchLog);
    }, { config: fakeAgentToml() });
  },
});
