/**
 * A Skiff agent and its watcher for tests: the fake agent as the Skiff agent
 * (a pane whose session has the skiff-agent mark), fake agents as workers,
 * the ledger in the test's folder, and a stand-in `notify-send` that records
 * what it is asked to show.
 *
 * @module
 */

import { join } from "node:path";
import { FAKE_AGENT, loggedPrompts, startFakeAgent, useFakeAgent } from "./fake_agent.ts";
import { BASH, type SkiffEnv, waitFor } from "./skiff.ts";
import type { DaemonStatus } from "../../lib/protocol/daemon.ts";

/** The files a watch test reads. */
export interface WatchRig {
  /** Every prompt the Skiff agent got, one JSON string a line. */
  agentLog: string;
  /** Every notification, one line each: its arguments. */
  notifyLog: string;
  /** While this file exists, the Skiff agent takes prompts with no turn. */
  noTurnFile: string;
  /** The watcher's log. */
  watchLog: string;
}

/** Writes an executable stand-in `name` into `dir` that appends its arguments to `log`. */
export async function recordingStub(dir: string, name: string, log: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, name);
  await Deno.writeTextFile(path, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\n`);
  await Deno.chmod(path, 0o755);
}

/** Sets up the ledger, the stand-ins and the Skiff agent `skipper`, and waits for the watcher. */
export async function startWatchRig(
  skiff: SkiffEnv,
  options: { turnMs?: number } = {},
): Promise<WatchRig> {
  const rig: WatchRig = {
    agentLog: join(skiff.root, "skipper.log"),
    notifyLog: join(skiff.root, "notify.log"),
    noTurnFile: join(skiff.root, "skipper.noturn"),
    watchLog: join(skiff.root, "run", "skiffd.watch.log"),
  };
  const stubs = join(skiff.root, "stubs");
  await recordingStub(stubs, "notify-send", rig.notifyLog);
  skiff.env.PATH = `${stubs}:${skiff.env.PATH}`;
  skiff.env.SKIFF_LEDGER = join(skiff.root, "agent", "ledger.db");
  await useFakeAgent(skiff, { turnStartSeconds: 1.5 });
  const turn = String(options.turnMs ?? 400);
  await startFakeAgent(skiff, "skipper", {
    env: { FAKE_LOG: rig.agentLog, FAKE_NOTURN_FILE: rig.noTurnFile, FAKE_TURN_MS: turn },
  });
  await skiff.ok(["mark", "skipper", "skiff-agent=1"]);
  await waitWatcher(skiff, (w) => w.running);
  return rig;
}

/** Waits until the watcher's health, as skiffd has it, satisfies `check`. */
export async function waitWatcher(
  skiff: SkiffEnv,
  check: (health: DaemonStatus["watcher"]) => boolean,
  timeout = 20_000,
): Promise<DaemonStatus["watcher"]> {
  return await waitFor("the watcher", async () => {
    const status = await skiff.json<DaemonStatus>(["daemon", "status"]);
    return check(status.watcher) ? status.watcher : undefined;
  }, { timeout });
}

/** Starts a fake-agent worker pane `name` and waits until it is idle. */
export async function startWorker(
  skiff: SkiffEnv,
  name: string,
  options: { shell?: boolean; turnMs?: number } = {},
): Promise<void> {
  const turn = String(options.turnMs ?? 400);
  if (options.shell) {
    await skiff.ok(["new", "--name", name, "--", ...BASH]);
    await skiff.ok([
      "keys",
      name,
      `FAKE_TURN_MS=${turn} ${Deno.execPath()} run -A -q ${FAKE_AGENT}`,
      "Enter",
    ]);
    await skiff.ok(["wait", name, "--until", "idle", "--timeout", "30"]);
  } else {
    await startFakeAgent(skiff, name, { env: { FAKE_TURN_MS: turn } });
  }
}

/** The prompts the Skiff agent got so far. */
export function agentPrompts(rig: WatchRig): Promise<string[]> {
  return loggedPrompts(rig.agentLog);
}

/** Waits until a prompt the Skiff agent got matches `pattern` (or holds the text); returns it. */
export async function waitPrompt(
  rig: WatchRig,
  pattern: RegExp | string,
  timeout = 20_000,
): Promise<string> {
  const matches = typeof pattern === "string"
    ? (p: string) => p.includes(pattern)
    : (p: string) => pattern.test(p);
  let seen: string[] = [];
  try {
    return await waitFor(`a [watch] line matching ${pattern}`, async () => {
      seen = await agentPrompts(rig);
      return seen.find(matches);
    }, { timeout });
  } catch (error) {
    const log = await Deno.readTextFile(rig.watchLog).catch(() => "(no watch log)");
    throw new Error(
      `${(error as Error).message}\nlines so far:\n${seen.join("\n")}\nwatch log:\n${log}`,
    );
  }
}

/** Adds a task for `pane` and sends it (with `extra` arguments); returns its uid. */
export async function sendTask(
  skiff: SkiffEnv,
  pane: string,
  task: string,
  extra: string[] = [],
): Promise<string> {
  const result = await skiff.run([
    "ledger",
    "add",
    "--pane",
    pane,
    "--task",
    task,
    "--send",
    "--enter",
    ...extra,
  ]);
  if (result.code !== 0 && result.code !== 8) {
    throw new Error(`ledger add --send exited ${result.code}: ${result.stderr}`);
  }
  return result.stdout.trim().split(" ")[0];
}
