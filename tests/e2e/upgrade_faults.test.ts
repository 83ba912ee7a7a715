/**
 * `skiff daemon upgrade` is all or nothing: a failure at any step, or a new
 * program that cannot take over, leaves the old skiffd serving with every
 * pane as it was (same pids, generations, screens, output unbroken).
 */

import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { makeCheckout } from "../helpers/checkout.ts";
import { BASH, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import type { DaemonStatus } from "../../lib/protocol/daemon.ts";
import { UPGRADE_STEPS } from "../../lib/daemon/server/upgrade_request.ts";
import { VERSION } from "../../lib/version.ts";

const COUNTER = [...BASH, "-c", "i=0; while :; do echo n$i; i=$((i+1)); sleep 0.02; done"];

interface Picture {
  pid: number;
  version: string;
  panes: { id: string; pid: number | null; generation: number; status: string }[];
  done: string;
}

async function picture(skiff: SkiffEnv): Promise<Picture> {
  const status = await skiff.json<DaemonStatus>(["daemon", "status"]);
  const panes = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
  return {
    pid: status.pid,
    version: status.version,
    panes: panes.map((p) => ({ id: p.id, pid: p.pid, generation: p.generation, status: p.status })),
    done: await skiff.ok(["capture", "done"]),
  };
}

async function counted(skiff: SkiffEnv): Promise<number[]> {
  const text = await skiff.ok(["capture", "count", "--scrollback", "100000"]);
  return [...text.matchAll(/^n(\d+)$/gm)].map((m) => Number(m[1]));
}

/** Waits until the counter moved on by `more`, and checks it never skipped or repeated. */
async function countsOn(skiff: SkiffEnv, more: number): Promise<void> {
  const from = (await counted(skiff)).length;
  const numbers = await waitFor("the counter to go on", async () => {
    const now = await counted(skiff);
    return now.length >= from + more ? now : undefined;
  }, { timeout: 20_000 });
  const gap = numbers.findIndex((n, i) => n !== i);
  assertEquals(gap, -1, `the counter skipped or repeated at ${gap}: ${numbers[gap]}`);
}

async function setUp(skiff: SkiffEnv): Promise<Picture> {
  await skiff.ok(["new", "--name", "count", "--", ...COUNTER]);
  await skiff.ok(["new", "--name", "done", "--", ...BASH, "-c", "echo finished; exit 4"]);
  await waitFor("pane done to exit", async () => (await picture(skiff)).done.includes("finished"));
  await countsOn(skiff, 10);
  return await picture(skiff);
}

Deno.test("upgrade faults: a failure at each step leaves the old skiffd and every pane as they were", async (t) => {
  await withSkiff(async (skiff) => {
    const before = await setUp(skiff);
    for (const step of UPGRADE_STEPS) {
      await t.step(step, async () => {
        skiff.env.SKIFF_FAULT_UPGRADE = step;
        const failed = await skiff.run(["daemon", "upgrade"]);
        delete skiff.env.SKIFF_FAULT_UPGRADE;
        assertEquals(failed.code, 4, failed.stderr);
        assertEquals(failed.stderr.trim().split("\n").length, 1, failed.stderr);
        assertMatch(
          failed.stderr,
          new RegExp(`at its ${step} step: .*SKIFF_FAULT_UPGRADE=${step}`),
        );
        assertMatch(failed.stderr, /runs on with every pane as it was/);
        assertEquals(await picture(skiff), before);
        const status = await skiff.json<DaemonStatus>(["daemon", "status"]);
        assertEquals([status.upgrade?.ok, status.upgrade?.step], [false, step]);
        assertMatch(
          await skiff.ok(["daemon", "status"]),
          new RegExp(`the last upgrade \\(\\d+s ago\\) stopped at its ${step} step: `),
        );
        await countsOn(skiff, 10);
      });
    }
    await t.step("then an upgrade without a fault goes through", async () => {
      await skiff.ok(["daemon", "upgrade"]);
      assertMatch(await skiff.ok(["daemon", "status"]), /upgraded in place from \S+ \d+s ago/);
      assertEquals(await picture(skiff), before);
      await countsOn(skiff, 10);
    });
  });
});

Deno.test("upgrade faults: a flood held for a check that fails is read and parsed again", async () => {
  await withSkiff(async (skiff) => {
    const stop = `${skiff.root}/stop`;
    const flood =
      `i=0; while [ ! -e ${stop} ]; do printf 'f%d %0300d\\n' $i 0; i=$((i+1)); done; ` +
      "echo flood-end; exec sleep 600";
    await skiff.ok(["new", "--name", "flood", "--", ...BASH, "-c", flood]);
    const last = async () => {
      const numbers = [...(await skiff.ok(["capture", "flood"])).matchAll(/^f(\d+) /gm)];
      return Number(numbers.at(-1)?.[1] ?? -1);
    };
    await waitFor("the flood to print", async () => (await last()) > 1000);
    skiff.env.SKIFF_FAULT_UPGRADE = "check";
    const failed = await skiff.run(["daemon", "upgrade"]);
    delete skiff.env.SKIFF_FAULT_UPGRADE;
    assertEquals(failed.code, 4, failed.stderr);
    const log = await Deno.readTextFile(`${skiff.root}/run/skiffd.log`);
    assertMatch(log, /flooding panes held for the check: 1\n/);
    const after = await last();
    await waitFor("the flood to go on", async () => (await last()) > after + 1000);
    Deno.writeTextFileSync(stop, "");
    await skiff.waitForScreen("flood", /flood-end/);
  });
});

Deno.test("upgrade faults: a program whose daemon cannot start is refused or undone, and the old skiffd runs on", async (t) => {
  // Fails as soon as skiffd starts: the check sees it, before anything changes.
  const broken = await makeCheckout({
    version: "0.98.0",
    edits: [{
      path: "lib/daemon/run.ts",
      find: /export async function runDaemon\([^)]*\): Promise<DaemonOutcome> \{/,
      replace: '$&\n  throw new Error("this skiffd is broken on purpose");',
    }],
  });
  // Passes the check, then fails taking the panes over, after the exec: the old program comes back.
  const late = await makeCheckout({
    version: "0.97.0",
    edits: [{
      path: "lib/daemon/upgrade/adopt.ts",
      find: "export function adoptionOrder(handoff: Handoff): { hot: string[]; rest: string[] } {",
      replace: '$&\n  throw new Error("taking panes over is broken on purpose");',
    }],
  });
  // Reads another version of the handoff only.
  const foreign = await makeCheckout({
    version: "0.96.0",
    edits: [{
      path: "lib/daemon/upgrade/handoff.ts",
      find: "export const HANDOFF_READS: readonly number[] = [",
      replace:
        "export const HANDOFF_READS: readonly number[] = [HANDOFF_VERSION + 1]; const _was = [",
    }],
  });
  try {
    await withSkiff(async (skiff) => {
      const before = await setUp(skiff);
      const cases = [
        { name: "broken at start", main: broken.main, says: /this skiffd is broken on purpose/ },
        {
          name: "broken after the exec",
          main: late.main,
          says: /skiff 0\.97\.0 could not take over: taking panes over is broken on purpose/,
        },
        {
          name: "another handoff version",
          main: foreign.main,
          says: /the handoff is of version 2, and this skiff reads 5/,
        },
      ];
      for (const { name, main, says } of cases) {
        await t.step(name, async () => {
          const failed = await skiff.run(["daemon", "upgrade"], { main });
          assertEquals(failed.code, 4, failed.stderr);
          assertMatch(failed.stderr, says);
          assertMatch(
            failed.stderr,
            new RegExp(`skiffd ${VERSION.replaceAll(".", "\\.")} runs on`),
          );
          assertEquals(await picture(skiff), before);
          await countsOn(skiff, 10);
        });
      }
      const log = await Deno.readTextFile(`${skiff.root}/run/skiffd.log`);
      assert(log.includes("running the old skiffd again"), log);
    });
  } finally {
    await Promise.all([broken.remove(), late.remove(), foreign.remove()]);
  }
});

Deno.test("upgrade faults: a skiffd that predates upgrades is left alone, with one line that says so", async () => {
  const old = await makeCheckout({
    version: "0.0.9",
    edits: [{
      path: "lib/daemon/server/methods.ts",
      find: '"daemon.upgrade": (params, ctx) => ctx.control.upgrade(upgradeRequest(params)),',
      replace: "",
    }],
  });
  try {
    await withSkiff(async (skiff) => {
      await skiff.ok(["new", "--name", "count", "--", ...COUNTER], { main: old.main });
      const panes = async () =>
        (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes.map((p) => [p.pid, p.generation]);
      const before = await panes();
      const pid = (await skiff.json<DaemonStatus>(["daemon", "status"])).pid;
      const refused = await skiff.run(["daemon", "upgrade"]);
      assertEquals(refused.code, 4, refused.stderr);
      assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
      assertMatch(
        refused.stderr,
        /skiffd 0\.0\.9 predates 'skiff daemon upgrade'.*'skiff daemon restart'/,
      );
      const status = await skiff.json<DaemonStatus>(["daemon", "status"]);
      assertEquals([status.pid, status.version], [pid, "0.0.9"]);
      assertEquals(await panes(), before);
      await countsOn(skiff, 5);
    });
  } finally {
    await old.remove();
  }
});
