/**
 * Real agent CLIs, offline against the fake model server, read right at the
 * moments issue 28 found them misread:
 *
 * - Case 2: Codex reports its own state (OSC 7501). It draws its input box,
 *   then works on its start, and says `state=idle` only when it is done:
 *   `skiff new --wait-ready` returns after that first report, so a send at
 *   once never finds it working (exit 12). Five starts in a row.
 *
 * Which agents run: `SKIFF_REAL_AGENTS` (a comma list, or `all`); by default
 * Claude Code and Codex. `SKIFF_REQUIRE_AGENTS` makes a missing one fail.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { type SkiffEnv, withSkiff } from "../helpers/skiff.ts";
import { type FakeLlm, startFakeLlm } from "../fixtures/fake_llm_server.ts";
import {
  type AgentLaunch,
  type AgentName,
  newAgentArgs,
  prepareAgent,
} from "../agents/agent_env.ts";
import { assertInstalled, runsAgent } from "../agents/selection.ts";
import type { Signal } from "../../lib/agents/rules.ts";

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
    });
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
