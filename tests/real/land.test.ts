/**
 * Real Claude Code, offline against the fake model server, as the Skiff
 * agent that brings a worker's work home: the fake model scripts its tool
 * calls, and it starts a worker (the fake agent) in a worktree, sends it a
 * task through the ledger, waits for the worker's turn to end, then runs
 * `skiff diff` and `skiff land`. The worker's turn commits a file, so the
 * base branch then holds the worker's commit, and the ledger's task shows
 * `landed` with the range.
 *
 * Runs when Claude Code is installed (`tests/agents/install.sh claude`) and
 * selected by `SKIFF_REAL_AGENTS` (Claude Code and Codex by default), or
 * when `SKIFF_REQUIRE_AGENTS` names it; then a missing install fails.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { fakeAgentToml } from "../helpers/fake_agent.ts";
import { addProject, git, makeRepo } from "../helpers/git.ts";
import { type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { type FakeLlm, startFakeLlm } from "../fixtures/fake_llm_server.ts";
import { agentBin, prepareAgent } from "../agents/agent_env.ts";
import { assertInstalled, runsAgent } from "../agents/selection.ts";
import { SCRIPTS } from "../agents/driver.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import type { TaskJson } from "../../lib/ledger/json.ts";

async function panes(skiff: SkiffEnv): Promise<PaneInfo[]> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
}

/** The worker's turn: what an agent's shell tool would do, write a file and commit it. */
function workScript(): string {
  return [
    "printf 'Hello from the worker\\n' > greeting.txt",
    "git add greeting.txt",
    "git -c user.name=Worker -c user.email=worker@skiff.invalid commit -q -m 'Add a greeting'",
    "echo committed",
  ].join(" && ");
}

/** What the Skiff agent's tool calls run, in order: a worker, its task, its turn's end, the review, the landing. */
function script(work: string): string[] {
  return [
    "skiff new --project demo --worktree greet --agent fake --wait-ready --json",
    `skiff ledger add --pane greet --task 'SHELL sh ${work}' --send --enter --json`,
    "skiff wait greet --until idle --timeout 60",
    "skiff diff greet --stat",
    "skiff land greet --json",
  ];
}

/** Lets the Skiff agent run these `skiff` commands without an approval, as a person would set it up. */
async function allowSkiffCommands(home: string): Promise<void> {
  const file = join(home, ".claude", "settings.json");
  const settings = JSON.parse(await Deno.readTextFile(file));
  settings.permissions = {
    allow: ["new", "ledger", "wait", "diff", "land"].map((c) => `Bash(skiff ${c}:*)`),
  };
  await Deno.writeTextFile(file, JSON.stringify(settings, null, 2));
}

Deno.test({
  name:
    "real claude as the Skiff agent: a worker in a worktree, a task through the ledger, then skiff diff and skiff land put its commit on the base",
  ignore: !runsAgent("claude"),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    assertInstalled("claude");
    await withSkiff(async (skiff) => {
      const work = join(skiff.root, "work.sh");
      await Deno.writeTextFile(work, workScript() + "\n");
      const llm = await startFakeLlm({ delayMs: 40, toolScript: script(work) });
      try {
        const folder = join(skiff.env.HOME, "skiff-agent");
        const launch = await prepareAgent("claude", {
          home: skiff.env.HOME,
          workdir: folder,
          llmPort: llm.port,
        });
        await allowSkiffCommands(skiff.env.HOME);
        // skiffd (started by the open) passes this on to the Skiff agent's shell.
        Object.assign(skiff.env, launch.env, {
          PATH: `${dirname(agentBin("claude"))}:${launch.env.PATH}`,
        });
        await Deno.mkdir(skiff.env.SKIFF_CONFIG_DIR, { recursive: true });
        await Deno.writeTextFile(
          skiff.configFile,
          [
            "[daemon]",
            "turn_start_seconds = 5",
            "[skiff_agent]",
            "enabled = true",
            'agent = "claude"',
            "",
            ...fakeAgentToml(),
            "",
          ].join("\n"),
        );
        const repo = await makeRepo(join(skiff.root, "repo"));
        await addProject(skiff, "demo", repo);
        try {
          await flow(skiff, repo, llm);
        } catch (error) {
          const screens = await Promise.all(
            ["p1", "greet"].map(async (p) =>
              `--- ${p} ---\n${(await skiff.run(["capture", p])).stdout}`
            ),
          );
          const reason = (error as Error).message;
          throw new Error(`${reason}\n${screens.join("\n")}\n--- failed: ${reason}`);
        }
      } finally {
        await llm.close();
      }
    });
  },
});

async function flow(skiff: SkiffEnv, repo: string, llm: FakeLlm): Promise<void> {
  const base = git(repo, "rev-parse", "main");
  await skiff.ok(["skipper", "--json"]);
  await skiff.ok(["wait", "p1", "--until", "idle", "--timeout", "120"]);
  await skiff.ok(["send", "p1", "RUNTOOL have a worker add a greeting, then land it", "--enter"]);
  // The script's last call is the landing: the base moves to the worker's commit.
  const landed = await waitFor("the base to hold the worker's commit", async () => {
    // A person would answer an approval the allow rules missed.
    const skipper = (await panes(skiff)).find((p) => p.id === "p1");
    if (skipper?.state === "waiting") await skiff.ok(["keys", "p1", SCRIPTS.claude.approve]);
    const tip = git(repo, "rev-parse", "main");
    return tip !== base ? tip : undefined;
  }, { timeout: 240_000, interval: 500 });
  // The Skiff agent's turn ends after the script, and the model saw every result.
  await skiff.ok(["wait", "p1", "--until", "idle", "--timeout", "90"]);
  assertEquals(llm.requests().filter((r) => r.toolCall === "Bash").length, 5);

  // The base holds the worker's commit: its subject, its file, on top of where main was.
  const worktree = (await panes(skiff)).find((p) => p.name === "greet")!.worktree!;
  assertEquals(git(repo, "log", "-1", "--format=%s", "main"), "Add a greeting");
  assertEquals(git(repo, "rev-parse", "main^"), base);
  assertEquals(git(repo, "show", "main:greeting.txt"), "Hello from the worker");
  assertEquals(git(repo, "rev-parse", "skiff/greet"), landed);
  // Landed into the clean main checkout: its files too.
  assertEquals(await Deno.readTextFile(join(repo, "greeting.txt")), "Hello from the worker\n");
  assertEquals(git(repo, "status", "--porcelain"), "");
  // The worker's task shows landed, with the range.
  const { rows } = await skiff.json<{ rows: TaskJson[] }>(["ledger", "ls", "--all"]);
  const task = rows.find((r) => r.task.startsWith("SHELL sh "))!;
  assert(task, JSON.stringify(rows));
  assertEquals([task.state, task.branch], ["landed", "skiff/greet"]);
  assertEquals([task.landed?.into, task.landed?.range], ["main", `${base}..${landed}`]);
  // The worktree's counts after the landing: nothing ahead, landed on main.
  await waitFor("the worktree counted again", async () => {
    const now = (await panes(skiff)).find((p) => p.name === "greet")!.worktree!;
    return now.ahead === 0 && now.landed?.into === "main" ? now : undefined;
  }, { timeout: 20_000 });
  assertEquals(worktree.branch, "skiff/greet");
  // What the Skiff agent read: the diff's stat and the landing's JSON, in its own screen.
  const screen = await skiff.ok(["capture", "p1", "--scrollback", "400"]);
  assertMatch(screen, /skiff diff greet --stat/);
  assertMatch(screen, /skiff land greet --json/);
}
