/**
 * An attached terminal across reloads and restarts of skiffd: keys typed
 * while it reconnects are delivered in order, never lost.
 */

import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, MAIN, waitFor, withSkiff } from "../helpers/skiff.ts";
import { TestTerminal, waitForDrawnAfterRedraw } from "../helpers/terminal.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

function attachArgv(pane: string): string[] {
  return [Deno.execPath(), "run", "-A", "-q", MAIN, "attach", pane];
}

Deno.test("keys typed right after a reload reach the pane, in order", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "web", "--", ...BASH]);
    const term = await TestTerminal.start(attachArgv("web"), {
      env: skiff.env,
      cwd: skiff.env.HOME,
      cols: 100,
      rows: 30,
    });
    try {
      await waitFor("the attach", async () => {
        const pane = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
        return pane.attached === 1;
      });
      await skiff.ok(["daemon", "reload"]);
      term.type("echo a-$((1+1))\r");
      await new Promise((resolve) => setTimeout(resolve, 300));
      term.type("echo b-$((2+2))\r");
      await skiff.waitForScreen("web", /^b-4$/m);
      const screen = await skiff.waitForScreen("web", /^a-2$/m, { timeout: 2000 });
      assertMatch(screen, /^a-2$[\s\S]*^b-4$/m);
      term.type("\x1c");
      assertEquals(await term.exited, 0);
    } finally {
      term.kill();
    }
  });
});

Deno.test("keys typed through a reload, one every few ms, all arrive in order", async () => {
  await withSkiff(async (skiff) => {
    const file = `${skiff.root}/typed.txt`;
    await skiff.ok(["new", "--name", "sink", "--", "sh", "-c", `cat > ${file}`]);
    const term = await TestTerminal.start(attachArgv("sink"), {
      env: skiff.env,
      cwd: skiff.env.HOME,
    });
    try {
      await waitFor("the attach", async () => {
        const pane = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
        return pane.attached === 1;
      });
      // A person typing on while skiffd reloads twice: every line must land, in order.
      let typing = true;
      let sent = 0;
      const typist = (async () => {
        while (typing) {
          term.type(`line-${++sent}\r`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      await skiff.ok(["daemon", "reload"]);
      await skiff.ok(["daemon", "reload"]);
      await waitFor("typing after the reloads", () => sent > 200 || undefined, { timeout: 30_000 });
      typing = false;
      await typist;
      const expected = Array.from({ length: sent }, (_, i) => `line-${i + 1}`).join("\n") + "\n";
      await waitFor(`${sent} lines in the file`, async () => {
        const text = await Deno.readTextFile(file).catch(() => "");
        return text.split("\n").length > sent || undefined;
      }, { timeout: 20_000 }).catch(() => {});
      assertEquals(await Deno.readTextFile(file), expected);
      term.type("\x1c");
      assertEquals(await term.exited, 0);
    } finally {
      term.kill();
    }
  });
});

Deno.test("an attached terminal follows a daemon restart to the restored pane and says it is a new shell", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "web", "--", ...BASH]);
    const term = await TestTerminal.start(attachArgv("web"), {
      env: skiff.env,
      cwd: skiff.env.HOME,
      cols: 100,
      rows: 30,
    });
    try {
      await waitFor("the attach", async () => {
        const pane = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
        return pane.attached === 1;
      });
      const before = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
      const from = term.raw.length;
      await skiff.ok(["daemon", "restart"]);
      // The notice shows at the bottom, over the restored pane's redraw.
      await waitForDrawnAfterRedraw(term, "skiffd restarted: web (p1) is a new shell", { from });
      await term.waitForText(/^ skiffd restarted: web \(p1\) is a new shell$/m);
      const after = await waitFor("the terminal to attach again", async () => {
        const pane = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
        return pane.attached === 1 ? pane : undefined;
      });
      assert(after.generation !== before.generation, "the restored pane runs a new process");
      term.type("echo after-$((3*3))\r");
      await term.waitForText(/^after-9$/m);
      await skiff.waitForScreen("web", /^after-9$/m);
      assert(!term.raw.includes("[skiffd stopped]"), term.raw);
      term.type("\x1c");
      assertEquals(await term.exited, 0);
      assertMatch(term.raw, /\[detached from web \(p1\)/);
    } finally {
      term.kill();
    }
  });
});

Deno.test("daemon stop still ends an attached terminal with its line", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "web", "--", ...BASH]);
    const term = await TestTerminal.start(attachArgv("web"), {
      env: skiff.env,
      cwd: skiff.env.HOME,
    });
    try {
      await waitFor("the attach", async () => {
        const pane = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
        return pane.attached === 1;
      });
      await skiff.ok(["daemon", "stop"]);
      assertEquals(await term.exited, 0);
      assertMatch(term.raw, /\[skiffd stopped\]/);
    } finally {
      term.kill();
    }
  });
});

Deno.test("issue 28: after kill -9 of skiffd, an attached terminal starts skiffd itself and follows the restore", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "web", "--", ...BASH]);
    const term = await TestTerminal.start(attachArgv("web"), {
      env: skiff.env,
      cwd: skiff.env.HOME,
      cols: 100,
      rows: 30,
    });
    try {
      await waitFor("the attach", async () => {
        const pane = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
        return pane.attached === 1;
      });
      const before = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
      const killed = (await skiff.daemonPid())!;
      const from = term.raw.length;
      Deno.kill(killed, "SIGKILL");
      // No command runs meanwhile: only the terminal can start the next skiffd. It does so at
      // once, not after the 10 s it used to wait before it ended with "[lost skiffd]".
      const came = await Promise.race([
        term.exited.then(() => "ended"),
        waitForDrawnAfterRedraw(term, "skiffd came back: web (p1) is a new shell", {
          from,
          timeout: 9000,
        }).then(() => "came back"),
      ]);
      assertEquals(came, "came back", term.raw.slice(from));
      const started = await skiff.daemonPid();
      assert(started !== undefined && started !== killed, `a new skiffd: ${started}`);
      const after = await waitFor("the terminal to be attached to the restored pane", async () => {
        const pane = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
        return pane.attached === 1 ? pane : undefined;
      });
      assert(after.generation !== before.generation, "the restored pane runs a new process");
      term.type("echo back-$((4*5))\r");
      await term.waitForText(/^back-20$/m);
      assert(!term.raw.includes("[lost skiffd]"), term.raw);
      term.type("\x1c");
      assertEquals(await term.exited, 0);
      assertMatch(term.raw, /\[detached from web \(p1\)/);
    } finally {
      term.kill();
    }
  });
});
