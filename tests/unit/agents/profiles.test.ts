/**
 * Custom agents from `[agents.NAME]`: every key read into the built-ins'
 * profile shape, each bad value refused with the key named; the registry;
 * and the launch lines built from profiles.
 */

import { join } from "node:path";
import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import { SkiffError } from "../../../lib/errors.ts";
import { parse as parseToml } from "smol-toml";
import { AGENT_KEYS, parseAgentProfile } from "../../../lib/agents/profile_toml.ts";
import { COMMON_HOOK_EVENTS } from "../../../lib/agents/profiles/hook_events.ts";
import { AgentRegistry } from "../../../lib/agents/registry.ts";
import {
  agentLaunch,
  agentLaunchFor,
  agentStartLine,
  launchLine,
} from "../../../lib/agents/launch.ts";
import { hookState } from "../../../lib/agents/hooks.ts";
import { readScreen } from "../../../lib/agents/rules.ts";
import { BUILT_IN } from "../../../lib/agents/profiles/mod.ts";
import { screenView } from "../../agents/tracker_harness.ts";

const FILE = "/cfg/projects.toml";

function parse(table: Record<string, unknown>, id = "mine") {
  return parseAgentProfile(id, table, { file: FILE });
}

Deno.test("custom agent: every key lands in the profile", () => {
  const profile = parse({
    label: "My Agent",
    command: "mine --fast 'two words'",
    continue_args: "resume --last",
    match: ["mine", "mine.js"],
    enter_delay_ms: 300,
    settle_ms: 250,
    busy: ["esc to interrupt", { name: "spinner", pattern: "^[⠁-⣿] " }],
    not_busy: "\\b(\\d+)/\\1 done\\b",
    approval: "Allow\\?",
    prompt: "^> ?(.*)$",
    continuation: "^  \\S",
    placeholders: ["^Ask me"],
    frame: "^─{8,}",
    prompt_status: "^\\S+ · model",
    title_busy: "^busy",
    title_approval: "^ask",
    title_idle: "^idle",
    progress: true,
    status_app: "mine",
    start_settle_ms: 800,
    hooks: {
      kind: "claude-settings",
      events: {
        Begin: "working",
        End: "idle",
        Note: { field: "kind", cases: { "^perm": "waiting" }, otherwise: "info" },
      },
    },
  });
  assertEquals(profile.id, "mine");
  assertEquals(profile.label, "My Agent");
  assertEquals([profile.command, profile.startArgs], ["mine", ["--fast", "two words"]]);
  assertEquals(profile.continueArgs, ["resume", "--last"]);
  assertEquals(profile.match, { comm: ["mine", "mine.js"], argv: ["mine", "mine.js"] });
  assertEquals([profile.enterDelayMs, profile.settleMs], [300, 250]);
  assertEquals(profile.screen.busy.map((r) => r.name), ["busy 1", "spinner"]);
  assertEquals(profile.screen.busy[1].pattern.source, "^[⠁-⣿] ");
  assert(profile.screen.notBusy?.[0].test("3/3 done"), "not_busy");
  assertEquals(profile.screen.approval.map((r) => r.name), ["approval 1"]);
  assert(profile.screen.composer.line.test("> hi"), "prompt");
  assert(profile.screen.composer.continuation?.test("  more"), "continuation");
  assert(profile.screen.composer.placeholders?.[0].test("Ask me anything"), "placeholders");
  assert(profile.screen.composer.frame?.test("─".repeat(10)), "frame");
  assert(profile.screen.composer.status?.test("Build · model x"), "prompt_status");
  assertEquals(
    [
      profile.title?.busy?.[0].name,
      profile.title?.approval?.[0].name,
      profile.title?.idle?.[0].name,
    ],
    ["title busy 1", "title approval 1", "title idle 1"],
  );
  assertEquals([profile.progress, profile.statusApp, profile.custom], [true, "mine", true]);
  assertEquals(profile.startSettleMs, 800);
  assertEquals(profile.hooks.kind, "claude-settings");
  assertEquals(hookState(profile, "Begin", {}), "working");
  assertEquals(hookState(profile, "Note", { kind: "permission" }), "waiting");
  assertEquals(hookState(profile, "Note", { kind: "other" }), "info");
  assertEquals(hookState(profile, "Stop", {}), "info", "its own events only");
});

Deno.test("custom agent: the smallest table, and the defaults", () => {
  const profile = parse({ command: ["/opt/bin/mine"], prompt: "^> (.*)$" });
  assertEquals(profile.label, "mine");
  assertEquals([profile.command, profile.startArgs], ["/opt/bin/mine", []]);
  assertEquals(profile.continueArgs, null);
  assertEquals(profile.match, { comm: ["mine"], argv: ["mine"] });
  assertEquals([profile.enterDelayMs, profile.settleMs], [200, undefined]);
  assertEquals(profile.hooks, { kind: "none", events: COMMON_HOOK_EVENTS });
  assertEquals(profile.screen.busy, []);
});

Deno.test("custom agent: a profile reads a screen like a built-in", () => {
  const profile = parse({
    command: "mine",
    prompt: "^> ?(.*)$",
    busy: "esc to interrupt",
    approval: "^Allow\\?",
  });
  assertEquals(readScreen(profile, screenView(["", "> "])).verdict, "idle");
  assertEquals(readScreen(profile, screenView(["esc to interrupt", "> "])).verdict, "working");
  assertEquals(readScreen(profile, screenView(["Allow? y/n"])).verdict, "waiting");
  assertEquals(readScreen(profile, screenView(["> draft"])).composer.draft, "draft");
});

/** Bad tables, each with the key its error must name. */
const BAD: [Record<string, unknown>, string][] = [
  [{ prompt: "^> (.*)$" }, "command"],
  [{ command: "", prompt: "^> (.*)$" }, "command"],
  [{ command: 3, prompt: "^> (.*)$" }, "command"],
  [{ command: "mine" }, "prompt"],
  [{ command: "mine", prompt: "^> ((.*)$" }, "prompt"],
  [{ command: "mine", prompt: "(.*)", bussy: "x" }, "bussy"],
  [{ command: "mine", prompt: "(.*)", label: 1 }, "label"],
  [{ command: "mine", prompt: "(.*)", continue_args: [1] }, "continue_args"],
  [{ command: "mine", prompt: "(.*)", match: [] }, "match"],
  [{ command: "mine", prompt: "(.*)", match: [""] }, "match"],
  [{ command: "mine", prompt: "(.*)", enter_delay_ms: 100 }, "enter_delay_ms"],
  [{ command: "mine", prompt: "(.*)", enter_delay_ms: "200" }, "enter_delay_ms"],
  [{ command: "mine", prompt: "(.*)", settle_ms: 20_000 }, "settle_ms"],
  [{ command: "mine", prompt: "(.*)", busy: "(" }, "busy"],
  [{ command: "mine", prompt: "(.*)", busy: [{ name: "x" }] }, "busy"],
  [{ command: "mine", prompt: "(.*)", not_busy: 5 }, "not_busy"],
  [{ command: "mine", prompt: "(.*)", approval: ["ok", "["] }, "approval"],
  [{ command: "mine", prompt: "(.*)", continuation: "(" }, "continuation"],
  [{ command: "mine", prompt: "(.*)", placeholders: [true] }, "placeholders"],
  [{ command: "mine", prompt: "(.*)", frame: "" }, "frame"],
  [{ command: "mine", prompt: "(.*)", prompt_status: "[" }, "prompt_status"],
  [{ command: "mine", prompt: "(.*)", title_busy: "(" }, "title_busy"],
  [{ command: "mine", prompt: "(.*)", title_approval: {} }, "title_approval"],
  [{ command: "mine", prompt: "(.*)", title_idle: [1] }, "title_idle"],
  [{ command: "mine", prompt: "(.*)", progress: "yes" }, "progress"],
  [{ command: "mine", prompt: "(.*)", resume_args: "--resume" }, "resume_args"],
  [{ command: "mine", prompt: "(.*)", resume_id: "x" }, "resume_id"],
  [{ command: "mine", prompt: "(.*)", resume_args: "-r {id}", resume_id: 5 }, "resume_id"],
  [
    { command: "mine", prompt: "(.*)", resume_args: "-r {id}", resume_new_args: "-n" },
    "resume_new_args",
  ],
  [{ command: "mine", prompt: "(.*)", resume_args: "-r {id}", resume_record: [] }, "resume_record"],
  [{ command: "mine", prompt: "(.*)", status_app: "" }, "status_app"],
  [{ command: "mine", prompt: "(.*)", start_settle_ms: 20_000 }, "start_settle_ms"],
  [{ command: "mine", prompt: "(.*)", hooks: "claude" }, "hooks"],
  [{ command: "mine", prompt: "(.*)", hooks: { kind: "webhook" } }, "hooks.kind"],
  [{ command: "mine", prompt: "(.*)", hooks: { when: {} } }, "hooks.when"],
  [{ command: "mine", prompt: "(.*)", hooks: { events: [] } }, "hooks.events"],
  [{ command: "mine", prompt: "(.*)", hooks: { events: { Stop: "done" } } }, "hooks.events.Stop"],
  [
    { command: "mine", prompt: "(.*)", hooks: { events: { N: { cases: { a: "idle" } } } } },
    "hooks.events.N.field",
  ],
  [
    { command: "mine", prompt: "(.*)", hooks: { events: { N: { field: "f", cases: [] } } } },
    "hooks.events.N.cases",
  ],
  [
    {
      command: "mine",
      prompt: "(.*)",
      hooks: { events: { N: { field: "f", cases: { "(": "idle" } } } },
    },
    "hooks.events.N.cases",
  ],
  [
    {
      command: "mine",
      prompt: "(.*)",
      hooks: { events: { N: { field: "f", cases: { a: "busy" } } } },
    },
    "hooks.events.N.cases",
  ],
  [
    {
      command: "mine",
      prompt: "(.*)",
      hooks: { events: { N: { field: "f", cases: {}, otherwise: "x" } } },
    },
    "hooks.events.N.otherwise",
  ],
  [
    { command: "mine", prompt: "(.*)", hooks: { events: { N: { field: "f", cases: {}, x: 1 } } } },
    "hooks.events.N.x",
  ],
];

Deno.test("custom agent: each bad value is refused with one line that names its key", () => {
  for (const [table, key] of BAD) {
    let error: Error | undefined;
    try {
      parse(table);
    } catch (e) {
      error = e as Error;
    }
    assert(error, `${JSON.stringify(table)} was taken`);
    assert(error instanceof SkiffError, `${key}: a SkiffError`);
    assertEquals(error.exit, "USAGE", key);
    // A bad value names its key; an unknown key is named in its table, with the known ones.
    const parts = key.split(".");
    const unknown = `${FILE}: unknown key '${parts.at(-1)}' in [${
      ["agents", "mine", ...parts.slice(0, -1)].join(".")
    }]; `;
    assert(
      error.message.startsWith(`${FILE}: 'agents.mine.${key}' `) ||
        error.message.startsWith(unknown),
      `${JSON.stringify(table)} → ${error.message}`,
    );
    assert(!error.message.includes("\n"), `${key}: one line`);
  }
});

Deno.test("custom agent: resume keys make a resume rule; without resume_args there is none", () => {
  const profile = parse({
    command: "mine",
    prompt: "(.*)",
    resume_args: "--resume {id}",
    resume_new_args: ["--id", "{id}"],
    resume_id: "info.id",
    resume_events: ["Start", "Turn"],
    resume_record: "~/.mine/{id}.log",
  });
  assertEquals(profile.resume, {
    args: ["--resume", "{id}"],
    newArgs: ["--id", "{id}"],
    id: { field: "info.id", events: ["Start", "Turn"] },
    record: { field: "transcript_path", paths: ["~/.mine/{id}.log"] },
  });
  const plain = parse({ command: "mine", prompt: "(.*)", resume_args: "-r {id}" });
  assertEquals(plain.resume, {
    args: ["-r", "{id}"],
    id: { field: "session_id" },
    record: { field: "transcript_path" },
  });
  assertEquals(parse({ command: "mine", prompt: "(.*)" }).resume, undefined);
});

Deno.test("launch: a resume line for one conversation, and a new conversation under a chosen id", async () => {
  const hookDir = await Deno.makeTempDir({ prefix: "skiff-launch-" });
  try {
    const registry = new AgentRegistry();
    const hookCommand = (agent: string, event: string) => `hook ${agent} ${event}`;
    const lines: Record<string, string[]> = {
      claude: ["claude", "--resume", "ID"],
      codex: ["codex", "-c", "allow_login_shell=false", "resume", "ID"],
      opencode: ["opencode", "--session", "ID"],
      gemini: ["gemini", "--resume", "ID"],
      qwen: ["qwen", "--resume", "ID"],
      hermes: ["hermes", "--resume", "ID"],
    };
    for (const [id, start] of Object.entries(lines)) {
      const launch = agentLaunch(registry.get(id)!, {
        resume: "ID",
        extra: ["--x"],
        hookCommand,
        hookDir,
        env: {},
      });
      assertEquals(launch.command.slice(0, start.length), start, id);
      assertEquals(launch.command.at(-1), "--x", id);
    }
    const grok = assertThrows(() =>
      agentLaunch(registry.get("grok")!, { resume: "ID", hookCommand, hookDir })
    );
    assertEquals((grok as SkiffError).exit, "USAGE");
    // Gemini and Qwen take the id of a new session; the others do not get one.
    const gemini = agentLaunchFor("gemini", { registry, hookCommand, hookDir, chooseId: true });
    assert(gemini.conversation, "an id was chosen");
    assertEquals(gemini.command.slice(0, 3), ["gemini", "--session-id", gemini.conversation]);
    const claude = agentLaunchFor("claude", { registry, hookCommand, hookDir, chooseId: true });
    assertEquals(claude.conversation, undefined);
    const continued = agentLaunchFor("qwen", {
      registry,
      hookCommand,
      hookDir,
      chooseId: true,
      continue: true,
    });
    assertEquals([continued.conversation, continued.command[1]], [undefined, "--continue"]);
  } finally {
    await Deno.remove(hookDir, { recursive: true });
  }
});

Deno.test("custom agent: a bad name is refused", () => {
  const error = assertThrows(() => parse({ command: "x", prompt: "(.*)" }, "my agent"));
  assertEquals(
    error.message,
    `${FILE}: agent name 'my agent' may hold only letters, digits, '.', '_' and '-'`,
  );
});

Deno.test("registry: custom agents come first and replace a built-in of the same name", () => {
  const registry = new AgentRegistry({
    file: FILE,
    document: {
      agents: {
        claude: { command: "claude", prompt: "^❯ (.*)$" },
        mine: { command: "mine", prompt: "(.*)" },
      },
    },
  });
  assertEquals(registry.profiles.map((p) => p.id).slice(0, 2), ["claude", "mine"]);
  assertEquals(registry.get("claude")?.custom, true);
  assertEquals(registry.profiles.length, BUILT_IN.length + 1);
  assertEquals(
    registry.identify({ pid: 1, comm: "node", argv: ["node", "/x/mine.js"] })?.id,
    "mine",
  );
  assertThrows(
    () => new AgentRegistry({ file: FILE, document: { agents: [] } }),
    /'agents' must be a table/,
  );
  assertThrows(
    () => new AgentRegistry({ file: FILE, document: { agents: { x: 1 } } }),
    /'agents.x' must be a table/,
  );
});

Deno.test("launch: agentLaunchFor builds the line skiff new --agent runs, hooks wired", async () => {
  const hookDir = await Deno.makeTempDir({ prefix: "skiff-launch-" });
  try {
    const registry = new AgentRegistry();
    const hookCommand = (agent: string, event: string) => `hook ${agent} ${event}`;
    const claude = agentLaunchFor("claude", {
      registry,
      hookCommand,
      hookDir,
      continue: true,
      extra: ["--model", "x"],
    });
    assertEquals(claude.command.slice(0, 3), ["claude", "--continue", "--settings"]);
    assertEquals(claude.command.slice(-2), ["--model", "x"]);
    assertEquals(claude.env, {});
    const opencode = agentLaunchFor("opencode", { registry, hookCommand, hookDir });
    assertEquals(opencode.command, ["opencode"]);
    assertEquals(opencode.env.OPENCODE_CONFIG, join(hookDir, "opencode-skiff.json"));
    const written = JSON.parse(await Deno.readTextFile(opencode.env.OPENCODE_CONFIG));
    assertEquals(written.plugin, [`file://${join(hookDir, "opencode-skiff-hooks.js")}`]);
    assertEquals((await Deno.stat(hookDir)).mode! & 0o777, 0o700);

    const codex = agentLaunchFor("codex", { registry, hookCommand, hookDir, continue: true });
    // Its tool calls keep the pane's PATH: no login shell.
    assertEquals(codex.command.slice(0, 6), [
      "codex",
      "-c",
      "allow_login_shell=false",
      "resume",
      "--last",
      "-c",
    ]);

    const unknown = assertThrows(() => agentLaunchFor("nope", { registry, hookDir }));
    assertEquals([(unknown as SkiffError).exit, unknown.message], [
      "NOT_FOUND",
      "No agent 'nope'. See 'skiff agents'",
    ]);
    const custom = new AgentRegistry({
      file: FILE,
      document: { agents: { mine: { command: "mine", prompt: "(.*)" } } },
    });
    const noContinue = assertThrows(() =>
      agentLaunchFor("mine", { registry: custom, hookDir, continue: true })
    );
    assertEquals((noContinue as SkiffError).exit, "USAGE");
  } finally {
    await Deno.remove(hookDir, { recursive: true });
  }
});

Deno.test("launch: the start line is one sh command with the hook environment", async () => {
  const launch = {
    command: ["sh", "-c", 'printf "%s|" "$SKIFF_X" "$@"', "argv0", "two words", "it's"],
    env: { SKIFF_X: "a b'c" },
  };
  const line = launchLine(launch);
  assert(line.startsWith("env "), line);
  const out = await new Deno.Command("sh", { args: ["-c", line], stdout: "piped" }).output();
  assertEquals(new TextDecoder().decode(out.stdout), "a b'c|two words|it's|");
  assertEquals(launchLine({ command: ["claude", "--continue"], env: {} }), "claude --continue");

  const hookDir = await Deno.makeTempDir({ prefix: "skiff-launch-" });
  try {
    const line = agentStartLine("opencode", {
      registry: new AgentRegistry(),
      hookDir,
      continue: true,
    });
    assertEquals(
      line,
      `env OPENCODE_CONFIG=${join(hookDir, "opencode-skiff.json")} opencode --continue`,
    );
    // The default hook command is this program's own `skiff hook`.
    const plugin = await Deno.readTextFile(join(hookDir, "opencode-skiff-hooks.js"));
    assert(/main\.ts hook opencode EVENT/.test(plugin), plugin);
  } finally {
    await Deno.remove(hookDir, { recursive: true });
  }
});

Deno.test("docs/agents.md: the custom agent example parses, and every key is documented", async () => {
  const page = await Deno.readTextFile(new URL("../../../docs/agents.md", import.meta.url));
  const section = page.slice(page.indexOf("## Custom agents"));
  const example = /```toml\n([\s\S]*?)```/.exec(section)![1];
  const registry = new AgentRegistry({ file: FILE, document: parseToml(example) });
  const mine = registry.get("mine")!;
  assertEquals([mine.label, mine.command, mine.startArgs], ["My Agent", "mine", ["--fast"]]);
  assertEquals(mine.hooks.kind, "claude-settings");
  assertEquals(readScreen(mine, screenView(["Do you want to proceed?"])).verdict, "waiting");
  const end = section.indexOf("\n## ", 1);
  const documented = end === -1 ? section : section.slice(0, end);
  const keys = [...AGENT_KEYS.filter((k) => k !== "hooks"), "hooks.kind", "hooks.events"];
  for (const key of keys) {
    // Each key has an item of its own: "- `key` (…): what it means".
    assert(
      new RegExp(`^- (\`[a-z_.]+\`, )*\`${key.replace(".", "\\.")}\``, "m").test(documented),
      `docs/agents.md documents '${key}'`,
    );
  }
});

Deno.test("gemini: the spinner of its hooks running before and after a turn reads as working", () => {
  const gemini = BUILT_IN.find((p) => p.id === "gemini")!;
  const view = screenView([
    " > say hello",
    " ⠹ Executing Hook: skiff hook gemini BeforeAgent",
    "? for shortcuts",
    "─".repeat(40),
    " >   Type your message or @path/to/file",
  ], { title: "◇  Ready (work)" });
  const reading = readScreen(gemini, view);
  assertEquals(reading.verdict, "working");
  assert(reading.signals.some((s) => s.rule === "running hooks"), "the rule is named");
});
