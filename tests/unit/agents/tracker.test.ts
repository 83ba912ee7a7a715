/**
 * The agent tracker's state machine, on a fake clock with made-up screens:
 * turns from prompts, screens, hooks and status reports; how long idle must
 * hold; start-up; approvals; late hooks; exits.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { SETTLE_MS } from "../../../lib/agents/profiles/profile.ts";
import {
  HOOK_OVERRULE_MS,
  STARTUP_GRACE_MS,
  TURN_CONFIRM_MS,
} from "../../../lib/agents/tracker.ts";
import {
  REPORTING_TOY,
  SCREENS,
  TOY,
  TOY_PROCESS,
  TrackerHarness,
} from "../../agents/tracker_harness.ts";

/** A tracker whose toy agent is up and idle (and said so, when it reports), past its start-up. */
function ready(options: ConstructorParameters<typeof TrackerHarness>[0] = {}): TrackerHarness {
  const t = new TrackerHarness(options);
  assertEquals(t.front(TOY_PROCESS), ["agent-start"]);
  if (options.profile?.statusApp) t.status("idle");
  assertEquals(t.tracker.state, "idle");
  t.advance(STARTUP_GRACE_MS);
  return t;
}

Deno.test("tracker: a shell, then the agent starts, loads and shows its input box", () => {
  const t = new TrackerHarness();
  assertEquals(t.front(undefined), []);
  assertEquals(t.tracker.state, "shell");
  t.show(SCREENS.loading);
  assertEquals(t.front(TOY_PROCESS), ["agent-start"]);
  assertEquals(t.tracker.state, "starting");
  t.advance(500);
  assertEquals(t.show(SCREENS.idle), []);
  assertEquals(t.tracker.state, "idle");
});

Deno.test("tracker: a prompt, busy at once, and idle that holds ends the turn", () => {
  const t = ready();
  t.submit();
  assertEquals(t.show(SCREENS.busy), ["turn-start"]);
  assertEquals([t.tracker.state, t.tracker.turns], ["working", 1]);
  t.advance(3000);
  assertEquals(t.show(SCREENS.idle), []);
  assertEquals(t.tracker.state, "working", "idle must hold first");
  const shown = t.now;
  assertEquals(t.advance(1000), ["turn-end"]);
  const ended = t.events.find((e) => e.event === "turn-end")!.at;
  assert(ended - shown >= SETTLE_MS, `ended ${ended - shown} ms after the screen went idle`);
  assert(ended - shown <= SETTLE_MS + 20, `ended ${ended - shown} ms after, not right after`);
  assertEquals(t.tracker.state, "idle");
});

Deno.test("tracker: an idle-looking frame shorter than the settle time is not a turn end", () => {
  const t = ready();
  t.submit();
  t.show(SCREENS.busy);
  for (let i = 0; i < 20; i++) {
    t.show(SCREENS.idle);
    t.advance(SETTLE_MS - 20);
    t.show(SCREENS.busy);
    t.advance(100);
  }
  assertEquals(t.events.map((e) => e.event), ["agent-start", "turn-start"]);
  assertEquals(t.tracker.state, "working");
});

Deno.test("tracker: busy signs with no prompt count as a turn only when they last", () => {
  const t = ready();
  t.show(SCREENS.busy);
  t.advance(TURN_CONFIRM_MS - 100);
  assertEquals(t.show(SCREENS.idle), [], "a short flash is a redraw, not a turn");
  t.advance(1000);
  assertEquals(t.tracker.state, "idle");
  assertEquals(t.tracker.turns, 0);
  t.show(SCREENS.busy);
  assertEquals(t.advance(TURN_CONFIRM_MS + 50), ["turn-start"]);
  assertEquals(t.tracker.turns, 1);
});

Deno.test("tracker: busy signs while the agent starts are start-up, not a turn", () => {
  const t = new TrackerHarness();
  t.show(SCREENS.busy);
  assertEquals(t.front(TOY_PROCESS), ["agent-start"]);
  t.advance(3000);
  assertEquals(t.tracker.state, "starting");
  t.show(SCREENS.idle);
  t.advance(1000);
  assertEquals(t.events.map((e) => e.event), ["agent-start"]);
});

Deno.test("tracker: busy signs soon after the input box showed, with no prompt, are loading", () => {
  // Gemini CLI draws its box, then clears it and spins while it resumes a session.
  const t = new TrackerHarness();
  t.front(TOY_PROCESS);
  t.advance(500);
  t.show(SCREENS.idle);
  assertEquals(t.tracker.state, "idle");
  t.show(SCREENS.busy);
  assertEquals(t.tracker.state, "starting");
  t.advance(3000);
  assertEquals(t.tracker.state, "starting");
  t.show(SCREENS.idle);
  assertEquals([t.tracker.state, t.tracker.turns], ["idle", 0]);
  // A prompt in the same seconds is a turn at once.
  t.submit();
  assertEquals(t.show(SCREENS.busy), ["turn-start"]);
});

Deno.test("tracker: a prompt that goes in while the agent still loads is a turn", () => {
  // Codex's start-up report of work can come between the paste and the Enter.
  const t = new TrackerHarness({ profile: REPORTING_TOY });
  t.front(TOY_PROCESS);
  t.advance(500);
  t.show(SCREENS.idle);
  t.status("working");
  assertEquals(t.tracker.state, "starting");
  t.submit();
  t.status("idle");
  t.show(SCREENS.busy);
  assertEquals(t.events.map((e) => e.event), ["agent-start", "turn-start"]);
  t.advance(2000);
  t.show(SCREENS.idle);
  t.advance(50);
  assertEquals(t.status("done"), ["turn-end"]);
});

Deno.test("tracker: a status report of work while the agent loads is not a turn", () => {
  // Codex shows its input box, then spins and reports `working` for 60 ms while it loads.
  const t = new TrackerHarness({ profile: REPORTING_TOY });
  t.front(TOY_PROCESS);
  t.advance(1000);
  t.show(SCREENS.busy);
  t.status("working");
  t.advance(60);
  t.show(SCREENS.idle);
  t.status("idle");
  t.advance(5000);
  assertEquals(t.events.map((e) => e.event), ["agent-start"]);
  assertEquals(t.tracker.state, "idle");
  // After start-up, the same report announces a turn at once.
  t.advance(STARTUP_GRACE_MS);
  t.show(SCREENS.busy);
  assertEquals(t.status("working"), ["turn-start"]);
});

Deno.test("tracker: case 2, an agent that reports its own state is starting until its first report", () => {
  // Codex draws its input box at 0.8 s, works on its start, and says `state=idle` at 2.4 s.
  const t = new TrackerHarness({ profile: REPORTING_TOY });
  t.front(TOY_PROCESS);
  t.advance(800);
  t.show(SCREENS.idle);
  assertEquals(t.tracker.state, "starting");
  t.advance(700);
  t.show(SCREENS.busy);
  assertEquals(t.tracker.state, "starting");
  t.advance(900);
  t.show(SCREENS.idle);
  assertEquals(t.tracker.state, "starting", "an idle screen before its report is still its start");
  assert(
    t.tracker.snapshot().signals.some((s) => s.rule === "no report of its own yet"),
    "explain says why",
  );
  assertEquals(t.status("idle"), []);
  assertEquals([t.tracker.state, t.tracker.turns], ["idle", 0]);
  assertEquals(t.events.map((e) => e.event), ["agent-start"]);
});

Deno.test("tracker: case 2, an agent that never reports is idle when the start grace ends", () => {
  const t = new TrackerHarness({ profile: REPORTING_TOY });
  t.front(TOY_PROCESS);
  t.show(SCREENS.idle);
  t.advance(STARTUP_GRACE_MS - 100);
  assertEquals(t.tracker.state, "starting");
  // Nothing changes on the screen: the tracker's own timer looks again.
  t.advance(200);
  assertEquals(t.tracker.state, "idle");
});

Deno.test("tracker: case 2, a report from before the agent appeared does not count", () => {
  // The pane's screen keeps the last report, from an agent that ran there before.
  const t = new TrackerHarness({ profile: REPORTING_TOY });
  t.status("idle");
  t.advance(5000);
  t.front(TOY_PROCESS);
  t.show(SCREENS.idle);
  assertEquals(t.tracker.state, "starting");
  assertEquals(t.status("idle"), []);
  assertEquals(t.tracker.state, "idle");
});

Deno.test("tracker: case 2, a prompt that goes in before the first report ends the wait", () => {
  const t = new TrackerHarness({ profile: REPORTING_TOY });
  t.front(TOY_PROCESS);
  t.show(SCREENS.idle);
  assertEquals(t.tracker.state, "starting");
  t.submit();
  assertEquals(t.tracker.state, "idle");
  assertEquals(t.show(SCREENS.busy), ["turn-start"]);
});

/** A toy that, like Codex, may work on its start just after its first report of idle. */
const SETTLING_TOY = { ...REPORTING_TOY, startSettleMs: 1000 };

Deno.test("tracker: case 2, work on its start just after its first report holds the start until a report of idle has held", () => {
  // Codex with MCP servers: `state=idle` at 1.1 s, `state=working` 0.2 s later while it starts
  // them, `state=idle` again 0.8 s after that.
  const t = new TrackerHarness({ profile: SETTLING_TOY });
  t.front(TOY_PROCESS);
  t.advance(800);
  t.show(SCREENS.idle);
  t.advance(300);
  assertEquals(t.status("idle"), []);
  assertEquals(t.tracker.state, "starting", "its report of idle must hold first");
  assert(
    t.tracker.snapshot().signals.some((s) => s.rule === "its report of idle settles"),
    "explain says why",
  );
  t.advance(200);
  t.show(SCREENS.busy);
  t.status("working");
  assertEquals(t.tracker.state, "starting");
  t.advance(800);
  t.show(SCREENS.idle);
  t.status("idle");
  t.advance(900);
  assertEquals(t.tracker.state, "starting");
  // Nothing changes on the screen: the tracker's own timer looks again once it held.
  t.advance(200);
  assertEquals([t.tracker.state, t.tracker.turns], ["idle", 0]);
  assertEquals(t.events.map((e) => e.event), ["agent-start"]);
});

Deno.test("tracker: case 2, a first report of idle that holds ends the start after the settle time", () => {
  const t = new TrackerHarness({ profile: SETTLING_TOY });
  t.front(TOY_PROCESS);
  t.show(SCREENS.idle);
  t.advance(500);
  t.status("idle");
  t.advance(SETTLING_TOY.startSettleMs - 100);
  assertEquals(t.tracker.state, "starting");
  t.advance(200);
  assertEquals(t.tracker.state, "idle");
  // Later reports of idle are no start: a turn's end is read at once, as before.
  t.submit();
  t.show(SCREENS.busy);
  t.status("working");
  t.advance(2000);
  t.show(SCREENS.idle);
  t.advance(50);
  assertEquals(t.status("idle"), ["turn-end"]);
});

Deno.test("tracker: case 2, a prompt that goes in while a report of idle settles ends the wait", () => {
  const t = new TrackerHarness({ profile: SETTLING_TOY });
  t.front(TOY_PROCESS);
  t.show(SCREENS.idle);
  t.status("idle");
  assertEquals(t.tracker.state, "starting");
  t.submit();
  assertEquals(t.tracker.state, "idle");
  assertEquals(t.show(SCREENS.busy), ["turn-start"]);
});

/** A toy that, like Gemini CLI with Skiff's hooks, runs its SessionStart hook after its input box shows. */
const START_HOOK_TOY = { ...TOY, startHook: "SessionStart" };

Deno.test("tracker: case 2, an agent whose start ends with a hook is starting until that hook, and while it runs", () => {
  // Gemini CLI: its box at 7.5 s, `Executing Hook: skiff SessionStart` 1.2 s later for 3 s,
  // the hook heard 0.4 s into it; past 10 s from its start, which is no turn.
  const t = new TrackerHarness({ profile: START_HOOK_TOY, hooked: true });
  t.front(TOY_PROCESS);
  t.advance(7500);
  t.show(SCREENS.idle);
  assertEquals(t.tracker.state, "starting");
  assert(
    t.tracker.snapshot().signals.some((s) => s.rule === "no start hook yet"),
    "explain says why",
  );
  t.advance(1200);
  t.show(SCREENS.busy);
  assertEquals(t.tracker.state, "starting");
  t.advance(400);
  t.heard("SessionStart");
  t.advance(2600);
  assertEquals(t.tracker.state, "starting", "its hook still runs, past 10 s from its start");
  assertEquals(t.show(SCREENS.idle), []);
  assertEquals([t.tracker.state, t.tracker.turns], ["idle", 0]);
  assertEquals(t.events.map((e) => e.event), ["agent-start"]);
});

Deno.test("tracker: case 2, on a loaded machine a start hook heard before its busy sign shows, past 10 s from the start, opens no turn", () => {
  // Gemini CLI under load: its box at 9.5 s, the hook heard at 10.5 s while the box still
  // reads idle, `Executing Hook: skiff SessionStart` drawn at 11 s, for 2.5 s.
  const t = new TrackerHarness({
    profile: { ...START_HOOK_TOY, startSettleMs: 1500 },
    hooked: true,
  });
  t.show(SCREENS.loading);
  t.front(TOY_PROCESS);
  t.advance(9500);
  t.show(SCREENS.idle);
  t.advance(1000);
  t.heard("SessionStart");
  t.show(SCREENS.idle);
  assertEquals(t.tracker.state, "starting", "idle must hold a moment after the hook's event");
  t.advance(500);
  assertEquals(t.show(SCREENS.busy), []);
  assertEquals(t.tracker.state, "starting", "the hook's busy sign is its start, not a turn");
  t.advance(2500);
  assertEquals(t.show(SCREENS.idle), []);
  assertEquals(t.tracker.state, "starting");
  assert(
    t.tracker.snapshot().signals.some((s) => s.rule === "its idle after the start hook settles"),
    "explain says why",
  );
  t.advance(1510);
  assertEquals([t.tracker.state, t.tracker.turns], ["idle", 0]);
  assertEquals(t.events.map((e) => e.event), ["agent-start"]);
});

Deno.test("tracker: case 2, an agent whose start ends with a hook, started without Skiff's hooks, is idle as its box shows", () => {
  const t = new TrackerHarness({ profile: START_HOOK_TOY });
  t.front(TOY_PROCESS);
  t.advance(500);
  t.show(SCREENS.idle);
  assertEquals(t.tracker.state, "idle");
});

Deno.test("tracker: case 2, a start hook that never comes holds the start only until the grace ends; a prompt ends it at once", () => {
  const t = new TrackerHarness({ profile: START_HOOK_TOY, hooked: true });
  t.front(TOY_PROCESS);
  t.show(SCREENS.idle);
  t.advance(STARTUP_GRACE_MS - 100);
  assertEquals(t.tracker.state, "starting");
  t.advance(200);
  assertEquals(t.tracker.state, "idle");
  const p = new TrackerHarness({ profile: START_HOOK_TOY, hooked: true });
  p.front(TOY_PROCESS);
  p.show(SCREENS.idle);
  p.submit();
  assertEquals(p.tracker.state, "idle");
  assertEquals(p.show(SCREENS.busy), ["turn-start"]);
});

Deno.test("tracker: an agent that does not report its own state is idle as its input box shows", () => {
  const t = new TrackerHarness({ profile: TOY });
  t.front(TOY_PROCESS);
  t.show(SCREENS.idle);
  assertEquals(t.tracker.state, "idle");
});

Deno.test("tracker: case 4, the agent's own notice that it still starts holds it starting, past the grace", () => {
  const profile = {
    ...TOY,
    screen: { ...TOY.screen, starting: [{ name: "wait", pattern: /^> waiting for the database/ }] },
  };
  const t = new TrackerHarness({ profile });
  t.show(["Toy 1.0", "", "> waiting for the database"]);
  t.front(TOY_PROCESS);
  t.advance(STARTUP_GRACE_MS * 2);
  t.look();
  assertEquals(t.tracker.state, "starting");
  t.show(SCREENS.idle);
  assertEquals([t.tracker.state, t.tracker.turns], ["idle", 0]);
});

Deno.test("tracker: the agent's own idle report ends its turn at once", () => {
  const t = ready({ profile: REPORTING_TOY });
  t.submit();
  t.show(SCREENS.busy);
  t.status("working");
  t.advance(2000);
  // Its screen looks idle mid-turn (Codex streams with only a title spinner): not an end.
  t.show(SCREENS.idle);
  assertEquals(t.advance(HOOK_OVERRULE_MS - 200), []);
  assertEquals(t.status("idle"), ["turn-end"]);
});

Deno.test("tracker: an approval is waiting, in a turn; then the turn goes on", () => {
  const t = ready();
  t.submit();
  t.show(SCREENS.busy);
  assertEquals(t.show(SCREENS.approval), ["waiting"]);
  assertEquals(t.tracker.state, "waiting");
  assertEquals(t.show(SCREENS.busy), [], "the same turn goes on");
  t.show(SCREENS.idle);
  assertEquals(t.advance(1000), ["turn-end"]);
  assertEquals(t.tracker.turns, 1);
});

Deno.test("tracker: an approval with no turn running opens one", () => {
  const t = ready();
  assertEquals(t.show(SCREENS.approval), ["waiting"]);
  assertEquals(t.tracker.turns, 1);
  t.show(SCREENS.idle);
  assertEquals(t.advance(1000), ["turn-end"]);
});

Deno.test("tracker: hooks mark turn edges at once", () => {
  const t = ready();
  t.submit();
  assertEquals(t.hook("Start", "working"), ["turn-start"], "before the screen shows it");
  t.show(SCREENS.busy);
  t.show(SCREENS.idle);
  assertEquals(t.hook("Stop", "idle"), ["turn-end"], "no settle wait");
});

Deno.test("tracker: a late working hook after the turn ended opens no turn", () => {
  // opencode reports `busy` again a few ms after its turn ended.
  const t = ready();
  t.submit();
  t.hook("Start", "working");
  t.show(SCREENS.busy);
  t.advance(2000);
  t.show(SCREENS.idle);
  assertEquals(t.hook("Stop", "idle"), ["turn-end"]);
  t.advance(20);
  assertEquals(t.hook("Start", "working"), []);
  assertEquals(t.advance(10_000), []);
  assertEquals([t.tracker.state, t.tracker.turns], ["idle", 1]);
  const signal = t.tracker.snapshot().signals.find((s) => s.source === "hook");
  assertEquals(signal?.says, "info");
  assert(signal?.text?.startsWith("ignored"), "explain says the hook was ignored");
  // A real turn later is not held back by the ignored hook.
  t.submit();
  assertEquals(t.hook("Start", "working"), ["turn-start"]);
});

Deno.test("tracker: a late waiting hook with an idle screen opens no turn either", () => {
  const t = ready();
  assertEquals(t.hook("Ask", "waiting"), []);
  assertEquals(t.tracker.state, "idle");
});

Deno.test("tracker: a working hook holds a turn over an idle screen until the screen wins", () => {
  const t = ready();
  t.submit();
  t.show(SCREENS.busy);
  t.show(SCREENS.idle);
  t.advance(SETTLE_MS / 2);
  // The hook comes after the screen went idle: the quiet counts from the hook.
  t.hook("Start", "working");
  const hookAt = t.now;
  const raised = t.advance(HOOK_OVERRULE_MS + 500);
  assertEquals(raised, ["turn-end"]);
  const ended = t.events.at(-1)!.at;
  assert(ended - hookAt >= HOOK_OVERRULE_MS, `${ended - hookAt} ms after the hook`);
});

Deno.test("tracker: a prompt that starts no turn raises idle-no-turn after the wait", () => {
  const t = ready({ noTurnMs: 3000 });
  t.submit();
  assertEquals(t.advance(2900), []);
  assertEquals(t.advance(200), ["idle-no-turn"]);
});

Deno.test("tracker: the agent leaving the front and the process exiting are exits", () => {
  const t = ready();
  t.submit();
  t.show(SCREENS.busy);
  assertEquals(t.front({ pid: 7, comm: "bash", argv: ["bash"] }), ["exit"]);
  assertEquals([t.tracker.state, t.tracker.agent], ["shell", undefined]);
  assertEquals(t.exit(), ["exit"]);
  assertEquals(t.tracker.state, "exited");
  assertEquals(t.exit(), [], "once");
});

Deno.test("tracker: a profile's own settle time is used", () => {
  const t = ready({ profile: { ...TOY, settleMs: 1000 } });
  t.submit();
  t.show(SCREENS.busy);
  t.show(SCREENS.idle);
  assertEquals(t.advance(900), []);
  assertEquals(t.advance(200), ["turn-end"]);
});

Deno.test("tracker: its memory saved mid-turn goes on in a new tracker, which ends the turn once", () => {
  const t = ready();
  t.submit();
  assertEquals(t.show(SCREENS.busy), ["turn-start"]);
  const saved = JSON.parse(JSON.stringify(t.tracker.save()));

  const next = new TrackerHarness();
  next.now = t.now;
  next.tracker.restore(saved);
  assertEquals(next.front(TOY_PROCESS), [], "the same agent, not a new one");
  assertEquals([next.tracker.state, next.tracker.turns], ["working", 1]);
  next.show(SCREENS.idle);
  assertEquals(next.advance(1000), ["turn-end"]);
  assertEquals(next.tracker.state, "idle");

  // Without the memory, the same screens tell of no turn at all.
  const fresh = new TrackerHarness();
  fresh.now = t.now;
  fresh.show(SCREENS.busy);
  fresh.front(TOY_PROCESS);
  fresh.show(SCREENS.idle);
  assertEquals(fresh.advance(1000).filter((e) => e === "turn-end"), []);
});

Deno.test("tracker: a memory of an agent the registry no longer knows is not taken up", () => {
  const t = ready();
  const saved = { ...t.tracker.save(), agent: "gone-agent" };
  const next = new TrackerHarness();
  next.tracker.restore(saved);
  assertEquals(next.tracker.state, "shell");
  assertEquals(next.tracker.agent, undefined);
});
