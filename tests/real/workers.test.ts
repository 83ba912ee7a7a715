/**
 * Real Claude Code, offline against the fake model server, and workers:
 *
 * - `skiff new --worktree … --agent claude --wait-ready` returns once Claude
 *   Code is idle at its input box in its own worktree, so a task goes in at
 *   once;
 * - Claude Code as the Skiff agent starts a worker itself: the fake model
 *   scripts its tool calls (`skiff new --project … --worktree … --wait-ready`,
 *   then `skiff ledger add … --send --enter`), and the task row with its
 *   branch, the branch and the worker's pane are all there.
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
import { addProject, defaultWorktreePath, git, makeRepo, placeOf } from "../helpers/git.ts";
import { type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { type FakeLlm, startFakeLlm } from "../fixtures/fake_llm_server.ts";
import { agentBin, launchEnvArgs, prepareAgent } from "../agents/agent_env.ts";
import { assertInstalled, runsAgent } from "../agents/selection.ts";
import { SCRIPTS } from "../agents/driver.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import type { TaskJson } from "../../lib/ledger/json.ts";

const ignore = !runsAgent("claude");

async function panes(skiff: SkiffEnv): Promise<PaneInfo[]> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
}

/** Runs `body`, adding what pane `pane` shows to a failure. */
async function showingPane(skiff: SkiffEnv, pane: string, body: () => Promise<void>) {
  try {
    await body();
  } catch (error) {
    const screen = await skiff.run(["capture", pane]);
    throw new Error(`${(error as Error).message}\n--- ${pane} ---\n${screen.stdout}`);
  }
}

Deno.test({
  name: "real claude: new --worktree --wait-ready returns once Claude Code is idle in its worktree",
  ignore,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    assertInstalled("claude");
    const llm = await startFakeLlm({ delayMs: 60 });
    try {
      await withSkiff(async (skiff) => {
        const repo = await makeRepo(join(skiff.root, "repo"));
        await addProject(skiff, "demo", repo);
        // Claude Code trusts the worktree's folder; prepareAgent makes it, empty, which Skiff takes.
        const path = defaultWorktreePath(skiff, "demo", "cc");
        const launch = await prepareAgent("claude", {
          home: join(skiff.root, "agent-home"),
          workdir: path,
          llmPort: llm.port,
        });
        const env = launchEnvArgs(launch);
        await showingPane(skiff, "cc", async () => {
          const out = JSON.parse(
            await skiff.ok([
              "new",
              "--project",
              "demo",
              "--worktree",
              "cc",
              "--agent",
              "claude",
              ...env,
              "--wait-ready",
              "--timeout",
              "120",
              "--json",
              "--",
              ...launch.args,
            ]),
          );
          assertEquals([out.name, out.branch, out.worktree.path], ["cc", "skiff/cc", path]);
          assertEquals([out.pane.agent, out.pane.state], ["claude", "idle"]);
          // Ready means ready: a task goes in at once and a turn starts.
          const sent = await skiff.json<{ turn_started: boolean }>([
            "send",
            "cc",
            "say hello",
            "--enter",
          ]);
          assertEquals(sent.turn_started, true);
          await skiff.ok(["wait", "cc", "--until", "idle", "--timeout", "90"]);
          assertEquals((await panes(skiff)).find((p) => p.name === "cc")?.cwd, path);
        });
        await skiff.ok(["kill", "cc"]);
      });
    } finally {
      await llm.close();
    }
  },
});

/** What the Skiff agent's tool calls run, in order: start a worker, then give it a task. */
const SCRIPT = [
  "skiff new --project demo --worktree greet --agent fake --wait-ready --json",
  "skiff ledger add --pane greet --task 'Add a greeting to app.txt' --send --enter --json",
];

Deno.test({
  name:
    "real claude as the Skiff agent starts a worker with --worktree, waits for it, and sends it a task through the ledger",
  ignore,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    assertInstalled("claude");
    const llm = await startFakeLlm({ delayMs: 40, toolScript: SCRIPT });
    try {
      await withSkiff(async (skiff) => {
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
        await showingPane(skiff, "p1", () => flow(skiff, repo, llm));
      });
    } finally {
      await llm.close();
    }
  },
});

/** Lets the Skiff agent run `skiff …` without an approval, as a person would set it up. */
async function allowSkiffCommands(home: string): Promise<void> {
  const file = join(home, ".claude", "settings.json");
  const settings = JSON.parse(await Deno.readTextFile(file));
  settings.permissions = { allow: ["Bash(skiff new:*)", "Bash(skiff ledger:*)"] };
  await Deno.writeTextFile(file, JSON.stringify(settings, null, 2));
}

async function flow(skiff: SkiffEnv, repo: string, llm: FakeLlm): Promise<void> {
  await skiff.ok(["skipper", "--json"]);
  await skiff.ok(["wait", "p1", "--until", "idle", "--timeout", "120"]);
  await skiff.ok(["send", "p1", "RUNTOOL start a worker on the greeting", "--enter"]);
  const row = await waitFor("the task row", async () => {
    // A person would answer an approval the allow rules missed.
    const skipper = (await panes(skiff)).find((p) => p.id === "p1");
    if (skipper?.state === "waiting") await skiff.ok(["keys", "p1", SCRIPTS.claude.approve]);
    const { rows } = await skiff.json<{ rows: TaskJson[] }>(["ledger", "ls", "--all"]);
    return rows.find((r) => r.task === "Add a greeting to app.txt" && r.stored_state === "sent");
  }, { timeout: 180_000, interval: 500 });
  const worker = (await panes(skiff)).find((p) => p.name === "greet")!;
  assert(worker, "the worker's pane");
  assertEquals([row.pane, row.pane_name, row.branch], [worker.id, "greet", "skiff/greet"]);
  assertEquals(worker.agent, "fake");
  assertEquals(placeOf(worker.worktree), {
    name: "greet",
    branch: "skiff/greet",
    path: defaultWorktreePath(skiff, "demo", "greet"),
  });
  assertEquals(worker.cwd, worker.worktree!.path);
  assertEquals(git(repo, "rev-parse", "--abbrev-ref", "skiff/greet"), "skiff/greet");
  assert(git(repo, "worktree", "list").includes(worker.worktree!.path), "git lists the worktree");
  // The worker got the task with its result path.
  await skiff.waitForScreen("greet", "Add a greeting to app.txt", { timeout: 30_000 });
  // The Skiff agent's turn ends after the script, and the model saw both results.
  await skiff.ok(["wait", "p1", "--until", "idle", "--timeout", "90"]);
  assertEquals(llm.requests().filter((r) => r.toolCall === "Bash").length, 2);
  assert(llm.requests().filter((r) => r.toolResult).length >= 2, "both results went back");
  assertMatch(await skiff.ok(["capture", "p1", "--scrollback", "200"]), /skiff ledger add/);
}
