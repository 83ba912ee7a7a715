/**
 * Hook events and what they mean, read from each profile's data; and how
 * Skiff wires its hooks into an agent it starts, including the opencode
 * plugin it writes, run for real.
 */

import { join } from "node:path";
import { assertEquals, assertMatch } from "../../helpers/assert.ts";
import { waitFor } from "../../helpers/skiff.ts";
import { hookState } from "../../../lib/agents/hooks.ts";
import { hookSetup } from "../../../lib/agents/hook_setup.ts";
import type { AgentProfile } from "../../../lib/agents/profiles/profile.ts";
import { AgentRegistry } from "../../../lib/agents/registry.ts";

const registry = new AgentRegistry();
const profile = (id: string): AgentProfile => registry.get(id)!;

Deno.test("hooks: Claude Code's events, and a Notification read by its payload", () => {
  const claude = profile("claude");
  assertEquals(hookState(claude, "UserPromptSubmit", {}), "working");
  assertEquals(hookState(claude, "PreToolUse", {}), "working");
  assertEquals(hookState(claude, "PermissionRequest", {}), "waiting");
  assertEquals(hookState(claude, "Stop", {}), "idle");
  assertEquals(hookState(claude, "StopFailure", {}), "idle");
  assertEquals(
    hookState(claude, "Notification", { notification_type: "permission_prompt" }),
    "waiting",
  );
  assertEquals(hookState(claude, "Notification", { notification_type: "idle_prompt" }), "idle");
  assertEquals(hookState(claude, "Notification", {}), "info");
  assertEquals(hookState(claude, "SessionEnd", {}), "info");
  assertEquals(hookState(claude, "NoSuchEvent", {}), "info");
  // An event name that is an Object property is still just an unknown event.
  assertEquals(hookState(claude, "toString", {}), "info");
});

Deno.test("hooks: Codex's notify program, read by the payload's type", () => {
  const codex = profile("codex");
  assertEquals(hookState(codex, "notify", { type: "agent-turn-complete" }), "idle");
  assertEquals(hookState(codex, "notify", { type: "approval-requested" }), "waiting");
  assertEquals(hookState(codex, "notify", { type: "something-new" }), "info");
  assertEquals(hookState(codex, "notify", {}), "info");
});

Deno.test("hooks: opencode's bus events, session.status read by status.type", () => {
  const opencode = profile("opencode");
  assertEquals(hookState(opencode, "session.status", { status: { type: "busy" } }), "working");
  assertEquals(hookState(opencode, "session.status", { status: { type: "idle" } }), "idle");
  assertEquals(hookState(opencode, "session.status", { status: { type: "retry" } }), "info");
  assertEquals(hookState(opencode, "session.status", { status: "busy" }), "info");
  assertEquals(hookState(opencode, "session.idle", {}), "idle");
  assertEquals(hookState(opencode, "permission.asked", {}), "waiting");
  assertEquals(hookState(opencode, "permission.replied", {}), "working");
  assertEquals(hookState(opencode, "Stop", {}), "info", "not opencode's event");
});

Deno.test("hooks: Gemini CLI's names, and the shared names for agents with no hooks of their own", () => {
  assertEquals(hookState(profile("gemini"), "AfterAgent", {}), "idle");
  assertEquals(hookState(profile("gemini"), "BeforeAgent", {}), "working");
  assertEquals(hookState(profile("qwen"), "Stop", {}), "idle");
  assertEquals(hookState(undefined, "Stop", {}), "idle", "an unknown agent");
  assertEquals(hookState(undefined, "AfterAgent", {}), "idle");
  assertEquals(hookState(undefined, "Nope", {}), "info");
});

Deno.test("hooks: meanings are the profile's data, nothing else", () => {
  const toy: AgentProfile = {
    ...profile("claude"),
    id: "toy",
    hooks: {
      kind: "none",
      events: {
        Go: "working",
        Phase: {
          field: "phase.name",
          cases: [{ pattern: /^ask/, state: "waiting" }, { pattern: /^done$/, state: "idle" }],
          otherwise: "working",
        },
      },
    },
  };
  assertEquals(hookState(toy, "Go", {}), "working");
  assertEquals(hookState(toy, "Stop", {}), "info", "not one of its events");
  assertEquals(hookState(toy, "Phase", { phase: { name: "asking" } }), "waiting");
  assertEquals(hookState(toy, "Phase", { phase: { name: "done" } }), "idle");
  assertEquals(hookState(toy, "Phase", { phase: { name: "thinking" } }), "working");
  assertEquals(hookState(toy, "Phase", {}), "working");
});

const command = (agent: string, event: string) => `skiff-hook ${agent} ${event}`;

Deno.test("hook wiring: Claude Code gets --settings naming a file with a hook for every event of its profile", () => {
  const claude = profile("claude");
  const setup = hookSetup(claude, command, { dir: "/nowhere" });
  assertEquals(setup.args, ["--settings", "/nowhere/claude-skiff-settings.json"]);
  assertEquals(setup.files.map((f) => f.path), ["/nowhere/claude-skiff-settings.json"]);
  const hooks = JSON.parse(setup.files[0].content).hooks;
  // Its state events, then SessionStart, which names a new conversation (for a resume).
  assertEquals(Object.keys(hooks), [...Object.keys(claude.hooks.events), "SessionStart"]);
  assertEquals(hooks.Stop[0].hooks[0].command, "skiff-hook claude Stop");
  assertEquals(setup.env, {});
});

Deno.test("hook wiring: Codex gets -c notify=…, which hands the JSON to the hook", async () => {
  const setup = hookSetup(profile("codex"), command, { dir: "/nowhere" });
  assertEquals(setup.args[0], "-c");
  const argv = JSON.parse(setup.args[1].replace(/^notify=/, ""));
  // Run the notify program as Codex would, with the JSON as the last argument.
  const script = argv[2].replace("skiff-hook codex notify", "printf %s");
  const out = await new Deno.Command(argv[0], {
    args: [argv[1], script, argv[3], '{"type":"agent-turn-complete"}'],
    stdout: "piped",
  }).output();
  assertEquals(new TextDecoder().decode(out.stdout), '{"type":"agent-turn-complete"}');
});

Deno.test("hook wiring: agents Skiff cannot wire get nothing, and say why", () => {
  for (const id of ["grok", "hermes"]) {
    const setup = hookSetup(profile(id), command, { dir: "/nowhere" });
    assertEquals([setup.args, setup.env, setup.files], [[], {}, []]);
    assertMatch(setup.unwired!, /Skiff has no way to wire/);
  }
});

Deno.test("hook wiring: Qwen Code gets a system settings layer: the person's own system settings plus Skiff's hooks", async () => {
  const root = await Deno.makeTempDir({ prefix: "skiff-hooks-" });
  try {
    const own = join(root, "etc-qwen-settings.json");
    await Deno.writeTextFile(
      own,
      `{
        // A comment, as the agents allow.
        "model": {"name": "theirs"},
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "their-stop"}]}]}
      }`,
    );
    const env = { QWEN_CODE_SYSTEM_SETTINGS_PATH: own };
    const setup = hookSetup(profile("qwen"), command, { dir: root, env });
    const file = join(root, "qwen-skiff-system-settings.json");
    assertEquals(setup.env, {
      QWEN_CODE_SYSTEM_SETTINGS_PATH: file,
      QWEN_CODE_SYSTEM_DEFAULTS_PATH: join(root, "system-defaults.json"),
    });
    const settings = JSON.parse(setup.files[0].content);
    assertEquals(setup.files[0].path, file);
    assertEquals(settings.model, { name: "theirs" }, "the person's settings stay");
    assertEquals(
      settings.hooks.Stop.map((e: { hooks: { command: string }[] }) => e.hooks[0].command),
      [
        "their-stop",
        "skiff-hook qwen Stop",
      ],
    );
    assertEquals(settings.hooks.SessionStart[0].hooks[0].command, "skiff-hook qwen SessionStart");
    // Case 3: a short name, which Gemini CLI and Qwen Code show for a running hook instead of
    // its whole command line (wider than the status row, it garbled Gemini CLI's row).
    assertEquals(settings.hooks.SessionStart[0].hooks[0].name, "skiff SessionStart");
    // Settings that cannot be read as settings are never hidden: nothing is wired.
    await Deno.writeTextFile(own, "{ not json");
    const broken = hookSetup(profile("qwen"), command, { dir: root, env });
    assertEquals([broken.files, broken.env], [[], {}]);
    assertMatch(broken.unwired!, /is not JSON/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("hook wiring: Gemini CLI's layer only where Gemini reads it (root-owned folders)", async () => {
  const root = await Deno.makeTempDir({ prefix: "skiff-hooks-" });
  try {
    // A temp folder is under /tmp, which others may write: Gemini would skip the file.
    const setup = hookSetup(profile("gemini"), command, { dir: root, env: {} });
    assertEquals([setup.files, setup.env], [[], {}]);
    assertMatch(setup.unwired!, /belong to root/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("hook wiring: opencode's plugin sends events one at a time, in order, newest status only", async () => {
  const root = await Deno.makeTempDir({ prefix: "skiff-hooks-" });
  try {
    await opencodePluginRun(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

async function opencodePluginRun(root: string): Promise<void> {
  const dir = { path: root };
  const log = join(dir.path, "hooks.log");
  // A slow hook: each call takes 100 ms, so calls side by side would interleave.
  const hook = join(dir.path, "hook.sh");
  await Deno.writeTextFile(
    hook,
    `#!/bin/sh\npayload=$(cat)\necho "start $2" >> ${log}\nsleep 0.1\necho "end $2 $payload" >> ${log}\n`,
    { mode: 0o755 },
  );
  const setup = hookSetup(profile("opencode"), (a, e) => `${hook} ${a} ${e}`, {
    dir: dir.path,
  });
  const config = setup.files.find((f) => f.path === setup.env.OPENCODE_CONFIG)!;
  const plugin = setup.files.find((f) => f.path !== config.path)!;
  assertEquals(JSON.parse(config.content).plugin, [`file://${plugin.path}`]);
  await Deno.writeTextFile(plugin.path, plugin.content);
  const { SkiffHooks } = await import(`file://${plugin.path}`);
  const handlers = await SkiffHooks();
  const send = (type: string, properties: unknown) =>
    handlers.event({ event: { type, properties } });
  await send("session.status", { status: { type: "busy" } });
  await send("message.part.updated", { text: "not forwarded" });
  await send("session.status", { status: { type: "busy" } });
  await send("session.status", { status: { type: "idle" } });
  await send("session.idle", { sessionID: "s1" });
  const lines = await waitFor("three hooks to finish", async () => {
    const text = await Deno.readTextFile(log).catch(() => "");
    const lines = text.trim().split("\n");
    return lines.length >= 6 ? lines : undefined;
  });
  // Give a wrongly started fourth call time to show up.
  await new Promise((resolve) => setTimeout(resolve, 300));
  assertEquals((await Deno.readTextFile(log)).trim().split("\n"), lines);
  assertEquals(lines, [
    "start session.status",
    'end session.status {"status":{"type":"busy"}}',
    "start session.status",
    'end session.status {"status":{"type":"idle"}}',
    "start session.idle",
    'end session.idle {"sessionID":"s1"}',
  ]);
}
