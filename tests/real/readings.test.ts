/**
 * Real agent CLIs, offline against the fake model server, read right at the
 * moments issue 28 found them misread:
 *
 * - Case 2: Codex reports its own state (OSC 7501). It draws its input box,
 *   then works on its start, and says `state=idle` only when it is done:
 *   `skiff new --wait-ready` returns after that first report, so a send at
 *   once never finds it working (exit 12). Five starts in a row.
 *
 * - Case 2, for agents that report by hooks: Claude Code and Qwen Code are
 *   idle as their input box shows (their SessionStart hook, which comes
 *   after it, holds back no prompt); Gemini CLI runs its SessionStart hook
 *   after its box shows, working meanwhile, and is ready once it has run. A
 *   send at once, or 1.5 s later, goes in, 4 starts in a row each.
 *
 * - Case 4: a Codex start that waits for another Codex's backfill of its
 *   state database shows Codex's own notice in its input box, which is no
 *   draft: a guarded send types the task, and Codex runs it once started.
 * - Case 3: Gemini CLI's `/clear` waits for Skiff's SessionEnd and
 *   SessionStart hooks, and reads working meanwhile (its status row names
 *   the running hook), so the wait for idle after it ends with the clear.
 *   Qwen Code's `/clear` shows nothing while it runs and drops what is typed
 *   meanwhile: it reads working from its Enter until its SessionStart hook,
 *   so a wait for idle and a send, at once after the Enter, go in.
 *
 * Which agents run: `SKIFF_REAL_AGENTS` (a comma list, or `all`); by default
 * Claude Code and Codex. `SKIFF_REQUIRE_AGENTS` makes a missing one fail.
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { type FakeLlm, startFakeLlm } from "../fixtures/fake_llm_server.ts";
import {
  type AgentLaunch,
  type AgentName,
  newAgentArgs,
  prepareAgent,
  rootOwnedTempDir,
} from "../agents/agent_env.ts";
import { assertInstalled, runsAgent } from "../agents/selection.ts";
import type { Signal } from "../../lib/agents/rules.ts";
import { DaemonClient } from "../../lib/client/client.ts";

/** What `skiff explain --json` says, as far as these tests read it. */
interface Explained {
  state: string;
  signals: Signal[];
  composer: { visible: boolean; draft: string; text: string } | null;
}

function explain(skiff: SkiffEnv, name: string): Promise<Explained> {
  return skiff.json<Explained>(["explain", name]);
}

/** Runs `walk` with a fake model and an isolated Skiff; on failure, adds what the pane showed. */
async function withAgent(
  agent: AgentName,
  walk: (skiff: SkiffEnv, llm: FakeLlm, at: { pane: string }) => Promise<void>,
  env: Record<string, string> = {},
): Promise<void> {
  assertInstalled(agent);
  const llm = await startFakeLlm({ delayMs: 60 });
  try {
    await withSkiff(async (skiff) => {
      const at = { pane: agent as string };
      try {
        await walk(skiff, llm, at);
      } catch (error) {
        const explained = await skiff.run(["explain", at.pane]);
        const screen = await skiff.run(["capture", at.pane]);
        throw new Error(
          `${
            (error as Error).message
          }\n--- explain ${at.pane} ---\n${explained.stdout}${explained.stderr}` +
            `--- screen ---\n${screen.stdout}\n--- failed at ${at.pane}: ${
              (error as Error).message
            }`,
        );
      }
    }, env);
  } finally {
    await llm.close();
  }
}

/** Prepares `agent` in a HOME and folder of its own under the test's root. */
function prepare(
  skiff: SkiffEnv,
  agent: AgentName,
  llm: FakeLlm,
  name: string,
): Promise<AgentLaunch> {
  return prepareAgent(agent, {
    home: join(skiff.root, `${name}-home`),
    workdir: join(skiff.root, "work"),
    llmPort: llm.port,
  });
}

/** `skiff new` arguments with `options` put before the agent's own (after `--`). */
function withOptions(args: string[], options: string[]): string[] {
  const dashes = args.indexOf("--");
  return [...args.slice(0, dashes), ...options, ...args.slice(dashes)];
}

Deno.test({
  name:
    "real codex: case 2, new --wait-ready waits for its first report, so a send at once never finds it working, 5 starts in a row",
  ignore: !runsAgent("codex"),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    withAgent("codex", async (skiff, llm, at) => {
      const work = join(skiff.root, "work");
      const launch = await prepare(skiff, "codex", llm, "codex");
      for (let i = 1; i <= 5; i++) {
        const name = `codex-${i}`;
        at.pane = name;
        await skiff.ok(withOptions(newAgentArgs("codex", launch, { cwd: work, name }), [
          "--wait-ready",
          "--timeout",
          "120",
        ]));
        // Ready means Codex said so itself: its first report had come.
        const ready = await explain(skiff, name);
        assert(
          ready.signals.some((s) => s.source === "status" && s.rule.startsWith("OSC 7501")),
          `start ${i}: ready before Codex's first report: ${JSON.stringify(ready.signals)}`,
        );
        const sent = await skiff.run([
          "send",
          name,
          `say hello ${i}`,
          "--enter",
          "--timeout",
          "60",
        ]);
        assertEquals(sent.code, 0, `start ${i}: ${sent.stderr}`);
        await skiff.ok(["wait", name, "--until", "idle", "--timeout", "120"]);
        await skiff.ok(["kill", name]);
      }
    }),
});

/** The state folder for `agent`'s panes: Gemini reads Skiff's hooks only from a root-owned one. */
async function hookedState(agent: AgentName): Promise<string | undefined> {
  return agent === "gemini" ? await rootOwnedTempDir() : undefined;
}

for (const agent of ["claude", "gemini", "qwen"] as const) {
  Deno.test({
    name:
      `real ${agent}: case 2, ready once its start is over (Gemini CLI's ends with its SessionStart hook), and a send at once or a moment later goes in, 4 starts in a row`,
    ignore: !runsAgent(agent),
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const secure = await hookedState(agent);
      try {
        await withAgent(agent, async (skiff, llm, at) => {
          const work = join(skiff.root, "work");
          const launch = await prepare(skiff, agent, llm, agent);
          for (let i = 1; i <= 4; i++) {
            const name = `${agent}-${i}`;
            at.pane = name;
            const made = await skiff.json<{ hooks_unwired: string | null }>(
              withOptions(newAgentArgs(agent, launch, { cwd: work, name }), [
                "--wait-ready",
                "--timeout",
                "120",
              ]),
            );
            assertEquals(made.hooks_unwired, null, "this test needs Skiff's hooks");
            // At once, then 1.5 s later: where Gemini CLI runs its SessionStart hook, for about
            // 3 s from 1-1.5 s after its input box, when that box was taken for ready.
            if (i > 2) await new Promise((resolve) => setTimeout(resolve, 1500));
            const sent = await skiff.run([
              "send",
              name,
              `say hello ${i}`,
              "--enter",
              "--timeout",
              "60",
            ]);
            assertEquals(sent.code, 0, `start ${i}: ${sent.stderr}`);
            // The task ran: the model was asked, and the turn ended.
            await waitFor(
              "the model to be asked",
              () => llm.requests().some((r) => (r.body ?? "").includes(`say hello ${i}`)),
              {
                timeout: 120_000,
              },
            );
            await skiff.ok(["wait", name, "--until", "idle", "--timeout", "120"]);
            await skiff.ok(["kill", name]);
          }
        }, secure ? { SKIFF_STATE_DIR: join(secure, "state") } : {});
      } finally {
        if (secure) await Deno.remove(secure, { recursive: true }).catch(() => {});
      }
    },
  });
}

/** Types a slash command key by key (a paste would be taken as text), then Enter. */
async function slashCommand(skiff: SkiffEnv, name: string, line: string): Promise<void> {
  for (const ch of line) await skiff.ok(["keys", "--literal", name, ch]);
  await skiff.waitForScreen(name, line, { timeout: 15_000 });
  await skiff.ok(["keys", name, "Enter"]);
}

Deno.test({
  name:
    "real codex: case 4, its state database backfill notice is not a draft: a guarded send types, and the task runs once Codex has started",
  ignore: !runsAgent("codex"),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    withAgent("codex", async (skiff, llm, at) => {
      const work = join(skiff.root, "work");
      const launch = await prepare(skiff, "codex", llm, "codex");
      // A first start makes Codex's state database and runs its backfill.
      at.pane = "first";
      await skiff.ok(withOptions(newAgentArgs("codex", launch, { cwd: work, name: "first" }), [
        "--wait-ready",
        "--timeout",
        "120",
      ]));
      await skiff.ok(["kill", "first"]);
      // Another Codex's start marks the backfill running until it is done: this start waits.
      const db = new DatabaseSync(stateDatabase(launch.env.CODEX_HOME));
      const now = Math.floor(Date.now() / 1000);
      db.prepare(
        "UPDATE backfill_state SET status = 'running', last_success_at = NULL, updated_at = ?",
      ).run(now);
      try {
        at.pane = "codex";
        // Wide enough for the notice on one row: wrapped, Codex's redraw of its input box leaves
        // cells of it behind (its renderer never drew the wrapped part), and a send cannot see
        // its text land (exit 16, nothing submitted).
        await skiff.ok(
          withOptions(newAgentArgs("codex", launch, { cwd: work, name: "codex" }), [
            "--size",
            "200x40",
          ]),
        );
        await skiff.waitForScreen("codex", "state db backfill is running at", { timeout: 120_000 });
        const waiting = await explain(skiff, "codex");
        assertEquals(waiting.composer?.draft, "", "the notice is Codex's own text, not a draft");
        assertEquals(waiting.state, "starting");
        const sent = await skiff.run(["send", "codex", "say hello", "--enter", "--timeout", "30"]);
        assertEquals(sent.code, 0, sent.stderr);
      } finally {
        db.prepare("UPDATE backfill_state SET status = 'complete', last_success_at = ?").run(now);
        db.close();
      }
      // Codex takes the task it was given while it waited, once it has started.
      await waitFor("the model to be asked", () =>
        llm.requests().some((r) => (r.body ?? "").includes("say hello")), { timeout: 120_000 });
      await skiff.ok(["wait", "codex", "--until", "idle", "--timeout", "120"]);
    }),
});

/** Codex's state database in `codexHome` (its name carries a schema number). */
function stateDatabase(codexHome: string): string {
  const name = [...Deno.readDirSync(codexHome)].map((e) => e.name)
    .find((n) => /^state_\d+\.sqlite$/.test(n));
  assert(name, `a state database in ${codexHome}`);
  return join(codexHome, name);
}

Deno.test({
  name:
    "real gemini: case 3, it reads working while /clear runs, so a send after the wait for idle goes in",
  ignore: !runsAgent("gemini"),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    // Gemini reads Skiff's hooks, which /clear waits for, only from a root-owned state folder.
    const secure = await rootOwnedTempDir();
    try {
      await withAgent("gemini", async (skiff, llm, at) => {
        const work = join(skiff.root, "work");
        const launch = await prepare(skiff, "gemini", llm, "gemini");
        at.pane = "gemini";
        const made = await skiff.json<{ hooks_unwired: string | null }>(
          withOptions(newAgentArgs("gemini", launch, { cwd: work, name: "gemini" }), [
            "--wait-ready",
            "--timeout",
            "120",
          ]),
        );
        assertEquals(made.hooks_unwired, null, "this test needs Skiff's hooks in Gemini CLI");
        for (let i = 1; i <= 3; i++) {
          const sent = await skiff.run(["send", "gemini", `say hello ${i}`, "--enter"]);
          assertEquals(sent.code, 0, `turn ${i}: ${sent.stderr}`);
          await skiff.ok(["wait", "gemini", "--until", "idle", "--timeout", "120"]);
          await slashCommand(skiff, "gemini", "/clear");
          // The clear runs Skiff's SessionEnd and SessionStart hooks: it works meanwhile.
          await skiff.ok(["wait", "gemini", "--until", "working", "--timeout", "30"]);
          await skiff.ok(["wait", "gemini", "--until", "idle", "--timeout", "120"]);
        }
        const last = await skiff.run(["send", "gemini", "say hello again", "--enter"]);
        assertEquals(last.code, 0, last.stderr);
      }, secure ? { SKIFF_STATE_DIR: join(secure, "state") } : {});
    } finally {
      if (secure) await Deno.remove(secure, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name:
    "real qwen: case 3, it reads working while /clear runs, so a wait for idle and a send at once after it go in",
  ignore: !runsAgent("qwen"),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    withAgent("qwen", async (skiff, llm, at) => {
      const work = join(skiff.root, "work");
      const launch = await prepare(skiff, "qwen", llm, "qwen");
      at.pane = "qwen";
      const made = await skiff.json<{ hooks_unwired: string | null }>(
        withOptions(newAgentArgs("qwen", launch, { cwd: work, name: "qwen" }), [
          "--wait-ready",
          "--timeout",
          "120",
        ]),
      );
      assertEquals(made.hooks_unwired, null, "this test needs Skiff's hooks in Qwen Code");
      // The Enter, the wait and the send go on one connection, with no process start between
      // them: a send 50 ms after the Enter was lost (exit 16) before the fix.
      const client = await DaemonClient.connect(skiff.socket);
      try {
        for (let i = 1; i <= 3; i++) {
          await skiff.ok(["send", "qwen", `say hello ${i}`, "--enter"]);
          await skiff.ok(["wait", "qwen", "--until", "idle", "--timeout", "120"]);
          for (const ch of "/clear") {
            await client.call("pane.keys", { pane: "qwen", keys: [ch], literal: true });
          }
          await skiff.waitForScreen("qwen", "/clear", { timeout: 15_000 });
          await client.call("pane.keys", { pane: "qwen", keys: ["Enter"] });
          const after = await client.call("pane.explain", { pane: "qwen" });
          assertEquals(after.state, "working", `clear ${i}: working as it runs`);
          await client.call("pane.wait", { pane: "qwen", until: "idle", timeout_ms: 30_000 });
          const text = `after clear ${i}`;
          const sent = await client.call("pane.send", {
            pane: "qwen",
            text,
            enter: true,
            timeout_ms: 30_000,
          });
          assertEquals(sent.turn_started, true, `clear ${i}`);
          await waitFor(`the model to be asked '${text}'`, () =>
            llm.requests().some((r) => (r.body ?? "").includes(text)), { timeout: 60_000 });
          await skiff.ok(["wait", "qwen", "--until", "idle", "--timeout", "120"]);
        }
      } finally {
        client.close();
      }
    }),
});
