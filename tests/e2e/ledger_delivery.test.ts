/**
 * Delivering a task never loses or invents a send: a reload lets a send in
 * flight finish; a lost connection leaves the task blocked with a note;
 * typing without Enter is not a send; a refusal prints the true state.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { loggedPrompts, startFakeAgent, useFakeAgent } from "../helpers/fake_agent.ts";
import { MAIN, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";

interface Row {
  uid: string;
  state: string;
  stored_state: string;
  note: string | null;
}

async function show(skiff: SkiffEnv, uid: string): Promise<Row> {
  return (await skiff.json<{ row: Row }>(["ledger", "show", uid])).row;
}

/** Starts `skiff args…` without waiting for it; resolves with its exit code and output. */
function spawn(skiff: SkiffEnv, args: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "-q", MAIN, ...args],
    env: skiff.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return child.output().then((o) => ({
    code: o.code,
    stdout: new TextDecoder().decode(o.stdout),
    stderr: new TextDecoder().decode(o.stderr),
  }));
}

async function setUp(skiff: SkiffEnv, { resume = true } = {}): Promise<string> {
  skiff.env.SKIFF_LEDGER = join(skiff.root, "agent", "ledger.db");
  await useFakeAgent(skiff);
  const log = join(skiff.root, "prompts.log");
  const noResume = resume ? [] : ["--no-resume"];
  await startFakeAgent(skiff, "rev", { env: { FAKE_LOG: log }, extra: noResume });
  return log;
}

/**
 * Starts `ledger add --send --enter` of a task the fake agent takes without
 * starting a turn, and returns once the agent got it: the sender is then
 * waiting for a turn that never starts. The fake agent's prompt log is read,
 * not its screen: the text shows in the input box only for the Enter delay,
 * which a capture per process start can miss on a loaded machine.
 */
async function sendUntilTyped(
  skiff: SkiffEnv,
  log: string,
  extra: string[],
): Promise<{ done: ReturnType<typeof spawn> }> {
  const sending = spawn(skiff, [
    "ledger",
    "add",
    "--pane",
    "rev",
    "--task",
    "NOTURN review this",
    "--send",
    "--enter",
    ...extra,
  ]);
  await waitFor("the agent to get the task", async () => (await loggedPrompts(log)).length > 0);
  // Wrapped, so that awaiting this does not wait for the send to end.
  return { done: sending };
}

Deno.test("a reload during a send lets it finish and answer; the task is not left pending", async () => {
  await withSkiff(async (skiff) => {
    const log = await setUp(skiff);
    // NOTURN: the agent takes the text and starts no turn, so the send waits its whole timeout.
    const sending = (await sendUntilTyped(skiff, log, ["--timeout", "8", "--json"])).done;
    await skiff.ok(["daemon", "reload"]);
    const result = await sending;
    assertEquals(result.code, 8, result.stderr);
    const out = JSON.parse(result.stdout);
    assertEquals(out.row.stored_state, "blocked");
    assertMatch(out.row.note, /no turn started within 8 s/);
    assertEquals(JSON.parse(result.stderr).error.code, "no_turn");
  });
});

Deno.test("a sender that loses skiffd mid-send leaves the task blocked with a note, exit 4", async () => {
  await withSkiff(async (skiff) => {
    const log = await setUp(skiff);
    const sending = (await sendUntilTyped(skiff, log, ["--timeout", "20"])).done;
    Deno.kill((await skiff.daemonPid())!, "SIGKILL");
    const result = await sending;
    assertEquals(result.code, 4, result.stderr);
    const uid = result.stdout.trim().split(" ")[0];
    assertMatch(result.stdout, /^[0-9a-f]{8} blocked /);
    assertMatch(result.stderr, /whether the text went in is unknown; it is now blocked/);
    const row = await show(skiff, uid);
    assertEquals(row.stored_state, "blocked");
    assertMatch(row.note!, /whether the text went in is unknown/);
  });
});

Deno.test("ledger send without --enter types the task but records it blocked, not sent", async () => {
  await withSkiff(async (skiff) => {
    const log = await setUp(skiff);
    const { stdout } = await skiff.run(["ledger", "add", "--pane", "rev", "--task", "Look"]);
    const uid = stdout.trim().split(" ")[0];
    const typed = await skiff.run(["ledger", "send", uid]);
    assertEquals(typed.code, 8, typed.stderr);
    assertMatch(typed.stdout, new RegExp(`^${uid} blocked `));
    assertMatch(typed.stderr, /without Enter, so it was not submitted/);
    const row = await show(skiff, uid);
    assertEquals(row.stored_state, "blocked");
    assertMatch(row.note!, /typed without Enter/);
    const text = await skiff.ok(["ledger", "show", uid]);
    assertMatch(text, /note: +typed without Enter/);
    assertEquals((await loggedPrompts(log)).length, 0, "nothing was submitted");
  });
});

Deno.test("a refused send of an interrupted task prints the state it shows", async () => {
  await withSkiff(async (skiff) => {
    // Not resumed: after the restart the pane is a bare shell, which refuses the send.
    await setUp(skiff, { resume: false });
    const added = await skiff.run([
      "ledger",
      "add",
      "--pane",
      "rev",
      "--task",
      "Survive",
      "--send",
      "--enter",
    ]);
    assertEquals(added.code, 0, added.stderr);
    const uid = added.stdout.trim().split(" ")[0];
    await skiff.ok(["daemon", "restart"]);
    const refused = await skiff.run(["ledger", "send", uid, "--enter"]);
    assertEquals(refused.code, 11, refused.stderr);
    assertMatch(refused.stdout, new RegExp(`^${uid} interrupted \\(stored sent\\) `));
    assert(!refused.stdout.includes(" sent /"), refused.stdout);
  });
});
