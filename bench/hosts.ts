/**
 * Hosts over loopback SSH: a local Skiff and two "remote" Skiffs, each with
 * its own HOME, state and socket behind a real sshd, reached only through
 * `[hosts.NAME]`. Rows, each against the same thing done locally in the
 * same run:
 *
 * - a guarded `skiff send … --enter` to an idle fake agent on a host, once
 *   the link is up, against the same send to a local one (what the host
 *   adds, in ms: target under 20);
 * - `skiff ls --all-hosts` with two hosts against a local `skiff ls`
 *   (target: under 2×);
 * - a worker's turn end on a host to the watcher's line submitted in the
 *   local Skiff agent (target: under 1.5 s; the local case is the watcher
 *   row of `bench/watch.ts`, under 1 s).
 *
 * Run alone: `deno run -A bench/hosts.ts`.
 *
 * @module
 */

import { join } from "node:path";
import { fakeAgentToml, newFakeAgentArgs } from "../tests/helpers/fake_agent.ts";
import { startRemote, stopRemote } from "../tests/helpers/hosts.ts";
import { hasSshd } from "../tests/helpers/sshd.ts";
import { withPane } from "../lib/hosts/resolve.ts";
import { type BenchRow, isolatedEnv, median, skiff, timeRow, timeSkiff } from "./harness.ts";
import { measureWakes, stopWithWatcher } from "./wake.ts";

const SENDS = 30;
const LISTS = 15;
const TURNS = 15;

/** Runs `work` in this process as a `skiff` of `env` would (its socket and folders). */
async function asSkiff<T>(env: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const keys = ["HOME", "SKIFF_SOCKET", "SKIFF_CONFIG_DIR", "SKIFF_STATE_DIR"];
  const before = new Map(keys.map((k) => [k, Deno.env.get(k)]));
  for (const key of keys) Deno.env.set(key, env[key]);
  try {
    return await work();
  } finally {
    for (const [key, value] of before) {
      if (value === undefined) Deno.env.delete(key);
      else Deno.env.set(key, value);
    }
  }
}

/** Runs the hosts benchmark and returns its rows (none when sshd is missing). */
export async function benchHosts(log: (line: string) => void): Promise<BenchRow[]> {
  if (!hasSshd()) {
    log("  sshd is missing (apt-get install openssh-server): no hosts rows");
    return [];
  }
  const { root, env } = await isolatedEnv();
  const gpu1 = await startRemote({ name: "gpu1", config: fakeAgentToml() });
  const gpu2 = await startRemote({ name: "gpu2", config: fakeAgentToml() });
  try {
    env.SKIFF_LEDGER = join(root, "agent", "ledger.db");
    await Deno.mkdir(env.SKIFF_CONFIG_DIR, { recursive: true });
    await Deno.writeTextFile(
      join(env.SKIFF_CONFIG_DIR, "projects.toml"),
      [...fakeAgentToml(), "", gpu1.toml, gpu2.toml].join("\n") + "\n",
    );
    const quick = { FAKE_TURN_MS: "100" };
    await skiff(newFakeAgentArgs("here", { env: quick }), env);
    await skiff(newFakeAgentArgs("there", { host: "gpu1", env: quick }), env);
    await skiff(["new", "--host", "gpu2", "--", "sh"], env);
    for (const pane of ["here", "gpu1:there"]) {
      await skiff(["wait", pane, "--until", "idle", "--timeout", "60"], env);
    }

    // A send to an idle agent, here and on gpu1, alternating so load falls on both alike. It
    // is timed in this process, as the command does it (find the pane's skiffd: the local one,
    // or the host's through the link; connect; the guarded send with Enter until a turn
    // starts; close), so the start of a program, the same for both, does not drown it.
    const sends: Record<"local" | "remote", number[]> = { local: [], remote: [] };
    await asSkiff(env, async () => {
      // The link is up once it was used.
      await withPane("gpu1:there", (client) => client.call("daemon.status"));
      for (let i = 0; i < SENDS; i++) {
        for (const [kind, ref] of [["local", "here"], ["remote", "gpu1:there"]] as const) {
          const start = performance.now();
          await withPane(
            ref,
            (client, pane) => client.call("pane.send", { pane, text: `task ${i}`, enter: true }),
          );
          sends[kind].push(performance.now() - start);
          await withPane(
            ref,
            (client, pane) => client.call("pane.wait", { pane, until: "idle", timeout_ms: 30_000 }),
          );
        }
      }
    });
    const added = sends.remote.map((ms, i) => ms - sends.local[i]);
    log(`  send, what the host adds: ${added.map((n) => n.toFixed(1)).join(" ")} ms`);
    log(`  send: local ${sends.local.map((n) => n.toFixed(0)).join(" ")} ms`);
    log(`  send: remote ${sends.remote.map((n) => n.toFixed(0)).join(" ")} ms`);

    // ls --all-hosts with both hosts against a local ls.
    const lists: Record<"local" | "all", number[]> = { local: [], all: [] };
    for (let i = 0; i < LISTS; i++) {
      lists.local.push((await timeSkiff(["ls", "--json"], env)).ms);
      const all = await timeSkiff(["ls", "--all-hosts", "--json"], env);
      const hosts = JSON.parse(all.stdout).hosts as { host: string; state: string }[];
      if (hosts.some((h) => h.state !== "up")) throw new Error(`a host is not up: ${all.stdout}`);
      lists.all.push(all.ms);
    }

    // A remote worker's turn end → the line in the local Skiff agent.
    const latencies = await measureWakes(root, env, {
      rounds: TURNS,
      host: "gpu1",
      markSeen: true,
    });
    log(`  remote turn end → line: ${latencies.map((n) => n.toFixed(0)).join(" ")} ms`);

    const sendRow = timeRow({
      metric: "hosts: a guarded send --enter to an idle agent on a host (vs the same, local)",
      target: "adds < 20 ms (median of the differences)",
    }, { skiff: sends.remote, baseline: sends.local, paired: true });
    const listRow = timeRow({
      metric: "hosts: ls --all-hosts with two hosts (vs a local ls)",
      target: "< 2x",
    }, { skiff: lists.all, baseline: lists.local, paired: true });
    const wakeRow = timeRow({
      metric: "hosts: a turn end on a host → the line submitted in the idle local Skiff agent",
      target: "< 1500 ms (median)",
    }, { skiff: latencies });
    return [
      { ...sendRow, met: median(added) < 20 },
      { ...listRow, met: listRow.skiff / listRow.tmux! < 2 },
      { ...wakeRow, met: wakeRow.skiff < 1500 },
    ];
  } finally {
    await stopWithWatcher(root, env);
    await stopRemote(gpu1);
    await stopRemote(gpu2);
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { renderTable } = await import("./harness.ts");
  console.log(renderTable(await benchHosts((line) => console.error(line))));
}
