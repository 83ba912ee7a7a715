/**
 * The built-in profiles against screens captured from the real agent CLIs
 * (tests/fixtures/screens, one folder per agent): every agent's idle, busy,
 * draft, approval and done screens. Whole recorded sessions replay in
 * sessions.test.ts.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { Screen } from "../../../lib/screen/screen.ts";
import { BUILT_IN } from "../../../lib/agents/profiles/mod.ts";
import { readScreen, type ScreenReading } from "../../../lib/agents/rules.ts";
import { AgentRegistry } from "../../../lib/agents/registry.ts";
import { fixtureAgents, SCREENS as ROOT } from "../../agents/replay.ts";
import { TrackerHarness } from "../../agents/tracker_harness.ts";
import { QUIET_COMMAND_MS, STARTUP_GRACE_MS } from "../../../lib/agents/tracker.ts";
import type { ScreenView } from "../../../lib/screen/view.ts";

/** Every agent with captured screens; sessions.test.ts checks each is a built-in. */
const AGENTS = fixtureAgents();
const DRAFT = "draft: rename the parser module next";

interface Fixture {
  cols: number;
  rows: number;
  title: string;
  foreground: { comm: string; argv: string[] };
}

async function load(bytes: Uint8Array, cols: number, rows: number): Promise<Screen> {
  const screen = new Screen(cols, rows, { scrollback: 100, respond: () => {} });
  await new Promise<void>((resolve) => screen.write(bytes, resolve));
  return screen;
}

/** A captured screen, as the agent rules see it. */
async function fixtureView(
  agent: string,
  state: string,
): Promise<{ view: ScreenView; meta: Fixture }> {
  const meta: Fixture = JSON.parse(
    await Deno.readTextFile(new URL(`${agent}/${state}.json`, ROOT)),
  );
  const text = await Deno.readTextFile(new URL(`${agent}/${state}.ans`, ROOT));
  // capture-pane prints rows with \n; a terminal needs \r\n. The last row has no newline to add.
  const body = text.replace(/\n$/, "").replace(/\r?\n/g, "\r\n") + `\x1b]2;${meta.title}\x07`;
  const screen = await load(new TextEncoder().encode(body), meta.cols, meta.rows);
  return { view: screen.view(), meta };
}

async function readFixture(
  agent: string,
  state: string,
): Promise<{ reading: ScreenReading; meta: Fixture }> {
  const { view, meta } = await fixtureView(agent, state);
  const profile = BUILT_IN.find((p) => p.id === agent)!;
  return { reading: readScreen(profile, view), meta };
}

for (const agent of AGENTS) {
  Deno.test(`${agent}: captured screens read as the state they show`, async () => {
    const expected: Record<string, ScreenReading["verdict"]> = {
      idle: "idle",
      busy: "working",
      draft: "idle",
      approval: "waiting",
      done: "idle",
    };
    for (const [state, verdict] of Object.entries(expected)) {
      const { reading } = await readFixture(agent, state);
      assertEquals(reading.verdict, verdict, `${agent} ${state}`);
      if (state === "draft") {
        assertEquals(reading.composer.draft, DRAFT, `${agent} draft text`);
      } else if (state !== "approval") {
        assertEquals(reading.composer.visible, true, `${agent} ${state}: the input box shows`);
        assertEquals(reading.composer.draft, "", `${agent} ${state}: placeholders count as empty`);
      }
    }
  });

  Deno.test(`${agent}: the foreground process is recognised`, async () => {
    const { meta } = await readFixture(agent, "idle");
    const found = new AgentRegistry().identify({ pid: 1, ...meta.foreground });
    assertEquals(found?.id, agent);
  });
}

Deno.test("Codex's OSC 7501 status report outranks an idle-looking screen", async () => {
  const { meta } = await readFixture("codex", "done");
  const text = await Deno.readTextFile(new URL("codex/done.ans", ROOT));
  const body = text.replace(/\n$/, "").replace(/\r?\n/g, "\r\n") +
    "\x1b]7501;state=working:app=codex\x1b\\";
  const screen = await load(new TextEncoder().encode(body), meta.cols, meta.rows);
  const codex = BUILT_IN.find((p) => p.id === "codex")!;
  const reading = readScreen(codex, screen.view());
  assertEquals(reading.verdict, "working");
  assert(reading.signals.some((s) => s.source === "status" && s.says === "working"));
  screen.write(
    new TextEncoder().encode("\x1b]7501;state=blocked:app=codex:kind=permission\x1b\\"),
    () => {},
  );
  await new Promise<void>((resolve) => screen.write(new Uint8Array(0), resolve));
  assertEquals(readScreen(codex, screen.view()).verdict, "waiting");
});

Deno.test("a quoted approval line in the transcript above the input box is not an approval", async () => {
  const rule = "─".repeat(60);
  const lines = [
    "● The dialog says: Do you want to proceed?",
    "",
    rule,
    "❯\u00a0",
    rule,
    "  ? for shortcuts",
  ];
  const screen = await load(new TextEncoder().encode(lines.join("\r\n")), 80, 24);
  const claude = BUILT_IN.find((p) => p.id === "claude")!;
  assertEquals(readScreen(claude, screen.view()).verdict, "idle");
});

Deno.test("Gemini CLI resuming a session is busy, though old prompts show above", async () => {
  // Seen with `gemini --resume latest`: the old conversation, a spinner, and no input box yet.
  const rows = [
    " > please RUNTOOL now",
    "╭────────────────────────────────────────────╮",
    "│ ✓  Shell echo skiff-fake-tool > skiff-tool-output.txt │",
    "╰────────────────────────────────────────────╯",
    " > [Function Response: run_shell_command]",
    "✦ Skiff fake model here.",
    "⠋ Resuming session...",
    "                                                      ? for shortcuts",
    "─".repeat(60),
    " Shift+Tab to accept edits",
    " workspace (/directory)            sandbox",
    " /tmp/work                         no sandbox",
  ];
  const screen = await load(new TextEncoder().encode(rows.join("\r\n")), 80, 24);
  const gemini = BUILT_IN.find((p) => p.id === "gemini")!;
  const reading = readScreen(gemini, screen.view());
  assertEquals(reading.verdict, "working");
  assert(reading.signals.some((s) => s.rule === "resuming"));
});

Deno.test("case 4: Codex's backfill notice in its input box is its own text, not a draft, and it is still starting", async () => {
  // Captured (tests/agents/capture_moments.ts): a Codex start that waits for another Codex's
  // backfill of its state database shows `state db backfill is running at …` in its input box.
  const { reading } = await readFixture("codex", "backfill");
  assertEquals(reading.composer.visible, true, "the input box shows");
  assert(/state db backfill is running at/.test(reading.composer.text), reading.composer.text);
  assertEquals(reading.composer.draft, "", "the notice is no draft");
  assertEquals(reading.verdict, "idle");
  assertEquals(reading.starting, true, "it is still starting");
  assert(reading.signals.some((s) => s.rule === "backfill notice"));
});

Deno.test("case 3: Gemini CLI running /clear, with its hooks, reads working", async () => {
  // Captured (tests/agents/capture_moments.ts): `/clear` waits for the SessionEnd and
  // SessionStart hooks, and the status row says `Executing Hook: skiff SessionEnd`, with no
  // spinner, while the input box shows the command.
  const { reading } = await readFixture("gemini", "clearing");
  assertEquals(reading.verdict, "working");
  assert(reading.signals.some((s) => s.rule === "running hooks"), JSON.stringify(reading.signals));
});

Deno.test("case 3: Qwen Code running /clear shows an empty input box; it reads working from its Enter until its SessionStart hook", async () => {
  // Captured (tests/agents/capture_moments.ts): `/clear` typed, then the screen just after its
  // Enter. Qwen Code clears its screen at once and shows nothing while it resets its chat and
  // runs its SessionEnd and SessionStart hooks, and drops what is typed meanwhile.
  const qwen = BUILT_IN.find((p) => p.id === "qwen")!;
  const idle = await fixtureView("qwen", "idle");
  const typed = await fixtureView("qwen", "clear-typed");
  const clearing = await fixtureView("qwen", "clearing");
  assertEquals(readScreen(qwen, typed.view).composer.draft.trim().slice(0, 6), "/clear");
  // Its screen alone says idle: the hold comes from the command that went in.
  assertEquals(readScreen(qwen, clearing.view).verdict, "idle");

  const t = new TrackerHarness({ profile: qwen });
  t.front({ pid: 42, comm: "qwen", argv: ["qwen"] });
  t.showView(idle.view);
  t.advance(STARTUP_GRACE_MS);
  assertEquals(t.tracker.state, "idle");
  t.showView(typed.view);
  assertEquals(t.submit(), ["turn-start"]);
  t.advance(40);
  t.showView(clearing.view);
  assertEquals(t.tracker.state, "working");
  assert(
    t.tracker.snapshot().signals.some((s) => s.rule === "/clear runs"),
    JSON.stringify(t.tracker.snapshot().signals),
  );
  t.advance(200);
  t.hook("SessionEnd", "info");
  assertEquals(t.tracker.state, "working", "its SessionEnd is not the end");
  t.advance(100);
  assertEquals(t.heard("SessionStart"), ["turn-end"]);
  assertEquals(t.tracker.state, "idle");

  // With no hooks wired, the hold ends after its time.
  t.showView(typed.view);
  t.submit();
  t.showView(clearing.view);
  t.advance(QUIET_COMMAND_MS - 100);
  assertEquals(t.tracker.state, "working");
  assertEquals(t.advance(200), ["turn-end"]);
  // A prompt is no quiet command: an idle screen after it is idle, as before.
  t.showView(idle.view);
  t.submit();
  assertEquals(t.tracker.state, "idle");
});
