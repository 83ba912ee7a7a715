/**
 * Whole sessions recorded from the real agent CLIs, with their timing
 * (`tests/fixtures/screens/<agent>/session*.jsonl`), replayed through a
 * screen and the tracker on a fake clock: each real turn raises exactly one
 * `turn-start` and one `turn-end`, in order, and nothing else happens.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { AgentRegistry } from "../../../lib/agents/registry.ts";
import {
  fixtureAgents,
  loadSession,
  replaySession,
  type Session,
  sessionFiles,
} from "../../agents/replay.ts";

/** When each prompt was submitted: an Enter right after typed text, the launch line aside. */
function promptTimes(session: Session): number[] {
  const times: number[] = [];
  let typed = false;
  for (const entry of session.entries) {
    if (entry.type !== undefined) typed = true;
    else if (entry.key !== undefined) {
      if (entry.key === "Enter" && typed) times.push(entry.t);
      typed = false;
    }
  }
  return times.slice(1);
}

const agents = fixtureAgents();

Deno.test("every fixture folder is a built-in agent with a recorded session", () => {
  const registry = new AgentRegistry();
  for (const agent of agents) {
    assert(registry.get(agent), `tests/fixtures/screens/${agent} names no built-in agent`);
    assert(sessionFiles(agent).length > 0, `${agent} has no session*.jsonl`);
  }
});

for (const agent of agents) {
  for (const file of sessionFiles(agent)) {
    Deno.test(`${agent} ${file}: one turn-start and one turn-end per real turn`, async () => {
      const session = await loadSession(agent, file);
      const prompts = promptTimes(session);
      assertEquals(prompts.length, session.meta.turns, "prompts in the recording");
      const { events, reading } = replaySession(session);
      const edges = events.filter((e) => e.event === "turn-start" || e.event === "turn-end");
      const expected = prompts.flatMap(() => ["turn-start", "turn-end"]);
      assertEquals(
        edges.map((e) => e.event),
        expected,
        `${agent}: ${edges.map((e) => `${e.event}@${e.t}`).join(" ")}`,
      );
      // Each turn starts after its prompt and ends before the next prompt.
      prompts.forEach((at, i) => {
        const start = edges[2 * i].t;
        const end = edges[2 * i + 1].t;
        assert(start >= at, `turn ${i + 1} started at ${start}, before its prompt at ${at}`);
        const next = prompts[i + 1] ?? Infinity;
        assert(end < next, `turn ${i + 1} ended at ${end}, after the next prompt at ${next}`);
      });
      const others = events.filter((e) =>
        !["turn-start", "turn-end", "waiting", "agent-start"].includes(e.event)
      );
      assertEquals(others.map((e) => e.event), [], "no exits or idle-no-turn");
      assertEquals(events.filter((e) => e.event === "agent-start").length, 1);
      assertEquals(reading?.verdict, "idle", "idle at the end");
      assert(reading?.composer.visible, "the input box shows at the end");
    });
  }
}
