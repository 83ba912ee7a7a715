import { guardLeft, startLineMark } from "../../../lib/skipper/open.ts";
import { START_GUARD_MS } from "../../../lib/skipper/marks.ts";
import { assertEquals, assertMatch } from "../../helpers/assert.ts";
import { parseConfig } from "../../../lib/config/config.ts";
import { paneNameFor, skiffAgentProfile, startLine } from "../../../lib/skipper/mod.ts";
import { tempDir, throwsSkiff } from "../../helpers/ledger.ts";

function profile(toml: string) {
  return skiffAgentProfile(parseConfig(toml, "p.toml"));
}

Deno.test("startLine: the continue line when asked and the agent has one", async () => {
  await using dir = await tempDir();
  const hookDir = dir.path;
  const claude = profile('[skiff_agent]\nagent = "claude"');
  const fresh = startLine(claude, { continue: false, hookDir });
  const again = startLine(claude, { continue: true, hookDir });
  assertEquals([fresh.continues, again.continues], [false, true]);
  // The hooks are in a file, so the typed line stays short.
  assertEquals(fresh.line, `claude --settings ${hookDir}/claude-skiff-settings.json`);
  assertEquals(again.line, `claude --continue --settings ${hookDir}/claude-skiff-settings.json`);
  const codex = startLine(profile('[skiff_agent]\nagent = "codex"'), { continue: true, hookDir });
  assertMatch(codex.line, /^codex -c allow_login_shell=false resume --last /);
  const opencode = startLine(profile('[skiff_agent]\nagent = "opencode"'), {
    continue: true,
    hookDir,
  });
  assertMatch(opencode.line, /^env OPENCODE_CONFIG=\S+ opencode --continue$/);
});

Deno.test("startLine: a custom agent has no continue line and starts a new conversation", () => {
  const custom = profile(
    '[skiff_agent]\nagent = "mine"\n[agents.mine]\ncommand = "my-agent --fast"\nprompt = "^> (.*)$"',
  );
  assertEquals(startLine(custom, { continue: true, hookDir: "/nonexistent" }), {
    line: "my-agent --fast",
    continues: false,
  });
});

Deno.test("startLine: a custom agent with continue_args continues", () => {
  const custom = profile(
    '[skiff_agent]\nagent = "mine"\n[agents.mine]\ncommand = "my-agent"\ncontinue_args = "--resume last"\nprompt = "^> (.*)$"',
  );
  assertEquals(startLine(custom, { continue: true, hookDir: "/nonexistent" }), {
    line: "my-agent --resume last",
    continues: true,
  });
});

Deno.test("skiffAgentProfile: an unknown agent is exit NOT_FOUND with a hint", () => {
  const error = throwsSkiff(() => profile('[skiff_agent]\nagent = "nope"'), "NOT_FOUND");
  assertMatch(error.message, /No agent 'nope' for the Skiff agent\. See 'skiff agents'/);
});

Deno.test("paneNameFor: a pane name from the agent's name", () => {
  assertEquals(paneNameFor("Skipper"), "Skipper");
  assertEquals(paneNameFor("Ship Mate"), "Ship-Mate");
  assertEquals(paneNameFor("  ~Mate! "), "Mate-");
  assertEquals(paneNameFor("!!"), "Skipper");
});

Deno.test("start-line guard: it belongs to the shell the line went into", () => {
  const now = 1_000_000;
  const mark = startLineMark(7, now - 5000);
  assertEquals(mark, `${now - 5000}@7`);
  assertEquals(guardLeft(mark, 7, now), START_GUARD_MS - 5000, "the same shell: still guarded");
  assertEquals(guardLeft(mark, 8, now), 0, "a new shell (a restore): not guarded");
  assertEquals(guardLeft(startLineMark(7, now - START_GUARD_MS), 7, now), 0, "over");
  assertEquals(guardLeft(null, 7, now), 0);
  // A mark from an older Skiff names no shell: it guards whatever shell is there.
  assertEquals(guardLeft(String(now - 1000), 9, now), START_GUARD_MS - 1000);
});
