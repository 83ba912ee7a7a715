/**
 * kill -9 of skiffd at 20 random moments while panes flood output and panes
 * are made, renamed, marked and killed, and while `skiff ledger add` runs in
 * a loop beside it. After each kill the workspace file is readable, every
 * pane whose change was answered comes back under its id with its name and
 * its session's marks, and every task whose add was answered is in the
 * ledger. `SKIFF_KILL_SEED` replays a run; `SKIFF_KILLS` changes its size.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { Rng } from "../helpers/fuzz.ts";
import {
  BASH,
  pidAlive,
  type SkiffEnv,
  waitFor,
  withSkiff,
  workspaceFiles,
} from "../helpers/skiff.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import type { TaskJson } from "../../lib/ledger/mod.ts";

const KILLS = Number(Deno.env.get("SKIFF_KILLS") ?? 20);
const SEED = Number(Deno.env.get("SKIFF_KILL_SEED") ?? Math.floor(Math.random() * 2 ** 31));
/** Panes made by the test besides the two that flood. */
const MAX_WORKERS = 6;
const FLOOD = "while :; do seq 1 50000; done";

/** What the test knows for certain of a pane. */
interface Known {
  id: string;
  name: string;
  session: string;
}

/** The panes and marks every answered change left, and what an unanswered one may have done. */
class Model {
  panes = new Map<string, Known>();
  marks = new Map<string, Record<string, string>>();
  #next = 0;

  name(): string {
    return `w${++this.#next}`;
  }

  workers(): Known[] {
    return [...this.panes.values()].filter((p) => !p.name.startsWith("flood"));
  }
}

type Op =
  | { kind: "new"; name: string; session: string }
  | { kind: "rename"; id: string; name: string }
  | { kind: "mark"; session: string; key: string; value: string | null }
  | { kind: "kill"; id: string };

function pickOp(model: Model, rng: Rng): Op {
  const workers = model.workers();
  const roll = rng.next();
  if (workers.length < 2 || (roll < 0.3 && workers.length < MAX_WORKERS)) {
    const name = model.name();
    return { kind: "new", name, session: `crew-${name}` };
  }
  const target = rng.pick(workers);
  if (roll < 0.55) return { kind: "rename", id: target.id, name: model.name() };
  if (roll < 0.85 || workers.length < 4) {
    const key = `k${rng.int(3)}`;
    const value = rng.chance(0.2) ? null : `v${rng.int(1000)}`;
    return { kind: "mark", session: target.session, key, value };
  }
  return { kind: "kill", id: target.id };
}

function argsOf(op: Op): string[] {
  switch (op.kind) {
    case "new":
      return ["new", "--name", op.name, "--session", op.session, "--", ...BASH];
    case "rename":
      return ["rename", op.id, op.name];
    case "mark":
      return op.value === null
        ? ["mark", op.session, "--clear", op.key]
        : ["mark", op.session, `${op.key}=${op.value}`];
    case "kill":
      return ["kill", op.id];
  }
}

/** Applies an answered change to the model. */
function apply(model: Model, op: Op, stdout: string): void {
  switch (op.kind) {
    case "new": {
      const id = stdout.trim();
      model.panes.set(id, { id, name: op.name, session: op.session });
      model.marks.set(op.session, {});
      break;
    }
    case "rename":
      model.panes.get(op.id)!.name = op.name;
      break;
    case "mark": {
      const marks = model.marks.get(op.session)!;
      if (op.value === null) delete marks[op.key];
      else marks[op.key] = op.value;
      break;
    }
    case "kill": {
      const pane = model.panes.get(op.id)!;
      model.panes.delete(op.id);
      model.marks.delete(pane.session);
      break;
    }
  }
}

/**
 * Takes what a change cut off by the kill did (it may have landed or not) from
 * what skiffd restored, after checking that it is one of the two.
 */
function settle(model: Model, op: Op, after: PaneInfo[]): void {
  const byId = new Map(after.map((p) => [p.id, p]));
  switch (op.kind) {
    case "new": {
      const made = after.find((p) => p.name === op.name);
      if (made) apply(model, op, made.id);
      break;
    }
    case "rename": {
      const name = byId.get(op.id)?.name;
      assert(name === op.name || name === model.panes.get(op.id)!.name, `rename: ${name}`);
      if (name === op.name) apply(model, op, "");
      break;
    }
    case "mark": {
      const pane = after.find((p) => p.session_name === op.session)!;
      const now = pane.session_marks[op.key];
      const before = model.marks.get(op.session)![op.key];
      assert(now === (op.value ?? undefined) || now === before, `mark ${op.key}: ${now}`);
      if (now === (op.value ?? undefined)) apply(model, op, "");
      break;
    }
    case "kill":
      if (!byId.has(op.id)) apply(model, op, "");
      break;
  }
}

/** Adds ledger tasks until stopped; returns the uids of the adds that were answered. */
async function ledgerLoop(skiff: SkiffEnv, running: () => boolean): Promise<Set<string>> {
  const added = new Set<string>();
  for (let n = 0; running(); n++) {
    // Every other one names a pane, so that it needs skiffd (and may be cut off by a kill).
    const args = n % 2
      ? ["--pane", "flood-a", "--task", `pane task ${n}`]
      : ["--task", `plan ${n}`];
    const result = await skiff.run(["ledger", "add", ...args, "--json"]);
    if (result.code === 0) added.add((JSON.parse(result.stdout).row as TaskJson).uid);
    else assertEquals(result.code, 4, `only a lost skiffd may stop an add: ${result.stderr}`);
  }
  return added;
}

function readWorkspace(file: string): { panes: { id: string; name: string }[] } {
  const data = JSON.parse(Deno.readTextFileSync(file));
  assert(Array.isArray(data.panes) && Array.isArray(data.sessions), "a Skiff workspace");
  return data;
}

Deno.test(`kill -9 of skiffd at ${KILLS} random moments under output load loses no pane, name, mark or task`, async () => {
  await withSkiff(async (skiff) => {
    const rng = new Rng(SEED);
    console.log(`kill seed ${SEED} (SKIFF_KILL_SEED=${SEED} replays it)`);
    const state = join(skiff.root, "state");
    const file = join(state, "skiffd.workspace.json");
    const model = new Model();
    for (const name of ["flood-a", "flood-b"]) {
      const id = (await skiff.ok(["new", "--name", name, "--session", "floods", "--", ...BASH]))
        .trim();
      model.panes.set(id, { id, name, session: "floods" });
    }
    model.marks.set("floods", {});
    let ledgerRunning = true;
    const ledger = ledgerLoop(skiff, () => ledgerRunning);
    ledger.catch(() => {});
    let survived = 0;
    let restored = 0;
    let cutOff = 0;
    try {
      for (let round = 0; round < KILLS; round++) {
        const floods = [...model.panes.values()].filter((p) => p.name.startsWith("flood"));
        for (const pane of floods) await skiff.ok(["keys", pane.id, FLOOD, "Enter"]);
        // The load is on: seq's numbers stream through both.
        for (const pane of floods) await skiff.waitForScreen(pane.id, /^\d{3,}$/m);
        const pid = (await skiff.daemonPid())!;
        let killed = false;
        const timer = setTimeout(() => {
          killed = true;
          Deno.kill(pid, "SIGKILL");
        }, 100 + rng.int(1500));
        let unsure: Op | undefined;
        while (!killed) {
          const op = pickOp(model, rng);
          const result = await skiff.run(argsOf(op));
          if (result.code === 0) apply(model, op, result.stdout);
          else if (killed) unsure = op;
          else throw new Error(`${argsOf(op).join(" ")} failed: ${result.stderr}`);
        }
        clearTimeout(timer);
        await waitFor("skiffd to die", () => !pidAlive(pid));
        // Whoever saved last, the file is whole.
        readWorkspace(file);

        const after = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
        if (unsure) {
          cutOff++;
          settle(model, unsure, after);
        }
        const expected = [...model.panes.values()].sort((a, b) =>
          Number(a.id.slice(1)) - Number(b.id.slice(1))
        );
        assertEquals(
          after.map((p) => [p.id, p.name, p.session_name, p.session_marks, p.status]),
          expected.map((p) => [p.id, p.name, p.session, model.marks.get(p.session), "running"]),
          `round ${round} (seed ${SEED})`,
        );
        assertEquals(readWorkspace(file).panes.map((p) => p.id), expected.map((p) => p.id));
        assertEquals(
          workspaceFiles(state),
          ["skiffd.workspace.json"],
          "no set-aside or temporary file",
        );
        survived++;
        restored += after.length;
      }
    } finally {
      ledgerRunning = false;
    }
    const added = await ledger;
    const rows = (await skiff.json<{ rows: TaskJson[] }>(["ledger", "ls", "--all"])).rows;
    const listed = new Set(rows.flatMap((r) => [r.uid, ...(r.tasks ?? []).map((t) => t.uid)]));
    const lost = [...added].filter((uid) => !listed.has(uid));
    console.log(
      `kill -9: ${survived} kills survived, ${restored} panes restored under their ids, ` +
        `${cutOff} changes cut off by a kill, ${added.size} ledger tasks added and kept`,
    );
    assertEquals(lost, [], "every answered ledger add is in the ledger");
    assertEquals(survived, KILLS);
    assert(added.size > 0, "the ledger loop added tasks");
  });
});
