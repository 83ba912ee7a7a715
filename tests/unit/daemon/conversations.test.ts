import { join } from "node:path";
import { assertEquals } from "../../helpers/assert.ts";
import { Conversations } from "../../../lib/daemon/restore/conversations.ts";
import type { Pane } from "../../../lib/daemon/panes/pane.ts";
import type { SavedPane } from "../../../lib/daemon/records/workspace.ts";
import { AgentRegistry } from "../../../lib/agents/registry.ts";

const registry = new AgentRegistry();

function fakePane(cwd = "/work"): Pane {
  const saved = { id: "p1", cwd } as SavedPane;
  return { id: "p1", saved } as unknown as Pane;
}

function keeper(env: Record<string, string> = {}) {
  const log: string[] = [];
  let saves = 0;
  const conversations = new Conversations({
    save: () => saves++,
    log: (line) => log.push(line),
    env: () => env,
  });
  return { conversations, log, saves: () => saves };
}

Deno.test("conversations: the newest id a pane's hooks name wins; SessionEnd and subagents do not count", async () => {
  const { conversations, saves } = keeper();
  const pane = fakePane();
  const claude = registry.get("claude");
  const hear = (event: string, payload: Record<string, unknown>) =>
    conversations.heard(pane, claude, { event, payload });
  await hear("SessionStart", {
    session_id: "one",
    cwd: "/work/a",
    transcript_path: "/t/one.jsonl",
  });
  assertEquals(pane.saved.conversation?.id, "one");
  assertEquals([pane.saved.conversation?.cwd, pane.saved.conversation?.record], [
    "/work/a",
    "/t/one.jsonl",
  ]);
  const saved = saves();
  // The same conversation again saves nothing.
  await hear("Stop", { session_id: "one", cwd: "/work/a", transcript_path: "/t/one.jsonl" });
  assertEquals(saves(), saved);
  // /clear: SessionEnd names the old one, then SessionStart the new one.
  await hear("SessionEnd", { session_id: "one" });
  await hear("SessionStart", { session_id: "two", cwd: "/work/a", source: "clear" });
  assertEquals([pane.saved.conversation?.id, pane.saved.conversation?.source], [
    "two",
    "SessionStart",
  ]);
  // A subagent's hook, an event that names nothing, an unsafe id: ignored.
  await hear("UserPromptSubmit", { session_id: "sub", agent_id: "x" });
  await hear("PreToolUse", { session_id: "three" });
  await hear("Stop", { session_id: "../../etc/passwd" });
  assertEquals(pane.saved.conversation?.id, "two");
  // An agent without a resume rule names nothing.
  await conversations.heard(pane, registry.get("grok"), {
    event: "Stop",
    payload: { session_id: "g" },
  });
  assertEquals(pane.saved.conversation?.id, "two");
});

Deno.test("conversations: the agent leaving keeps the id, no longer live; a resume makes it live again", async () => {
  const { conversations } = keeper();
  const pane = fakePane();
  await conversations.heard(pane, registry.get("opencode"), {
    event: "session.created",
    payload: { sessionID: "ses_1", info: { id: "ses_1", directory: "/work/o" } },
  });
  await conversations.heard(pane, registry.get("opencode"), {
    event: "session.created",
    payload: { sessionID: "ses_child", info: { id: "ses_child", parentID: "ses_1" } },
  });
  assertEquals([pane.saved.conversation?.id, pane.saved.conversation?.cwd], ["ses_1", "/work/o"]);
  conversations.agentLeft(pane);
  assertEquals([pane.saved.conversation?.id, pane.saved.conversation?.live], ["ses_1", false]);
  conversations.resuming(pane);
  assertEquals(pane.saved.conversation?.live, true);
});

Deno.test("conversations: a Codex thread counts only once its rollout is there (its title thread has none)", async () => {
  const home = await Deno.makeTempDir();
  try {
    const { conversations, log } = keeper({ HOME: home });
    const pane = fakePane();
    const codex = registry.get("codex");
    const day = join(home, ".codex", "sessions", "2026", "12", "01");
    await Deno.mkdir(day, { recursive: true });
    await Deno.writeTextFile(join(day, "rollout-2026-12-01T20-00-36-real-1.jsonl"), "{}");
    const notify = (id: string) =>
      conversations.heard(pane, codex, {
        event: "notify",
        payload: { type: "agent-turn-complete", "thread-id": id, cwd: "/work/c" },
      });
    await notify("real-1");
    assertEquals(
      pane.saved.conversation?.record,
      join(day, "rollout-2026-12-01T20-00-36-real-1.jsonl"),
    );
    await notify("title-thread");
    assertEquals(pane.saved.conversation?.id, "real-1");
    assertEquals(
      log.filter((l) => l.includes("title-thread") && l.includes("no record")).length,
      1,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
