/**
 * An attached terminal's own keys: the history key opens the pane's
 * history in a pager and comes back to the live pane; both keys are set in
 * `[attach]` of projects.toml.
 */

import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, MAIN, waitFor, withSkiff } from "../helpers/skiff.ts";
import { TestTerminal, waitForDrawnAfterRedraw } from "../helpers/terminal.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

function attachArgv(pane: string): string[] {
  return [Deno.execPath(), "run", "-A", "-q", MAIN, "attach", pane];
}

async function attached(skiff: { json: <T>(args: string[]) => Promise<T> }): Promise<void> {
  await waitFor("the attach", async () => {
    const pane = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
    return pane.attached === 1;
  });
}

Deno.test("Ctrl+] shows the pane's history in less and comes back to the live pane", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "web", "--", ...BASH]);
    await skiff.ok(["keys", "web", "seq 1 300", "Enter"]);
    await skiff.waitForScreen("web", /^300$/m);
    const term = await TestTerminal.start(attachArgv("web"), {
      env: skiff.env,
      cwd: skiff.env.HOME,
      cols: 80,
      rows: 20,
    });
    try {
      await attached(skiff);
      await term.waitForText(/^300$/m);
      term.type("\x1d");
      // less starts at the bottom; g goes to the top, where the history begins.
      await term.waitForText(/^History of web \(p1\) \(END\), q returns to the pane/m);
      term.type("g");
      await term.waitForText(/^\S*[#$] seq 1 300$/m);
      await term.waitForText(/^1$/m);
      // Output that comes while the pager shows waits for the redraw.
      await skiff.ok(["keys", "web", "echo while-paging", "Enter"]);
      await skiff.waitForScreen("web", /^while-paging$/m);
      assert(!term.text().includes("while-paging"), term.text());
      term.type("q");
      await term.waitForText(/^while-paging$/m);
      // The keys typed in less never reached the pane.
      term.type("echo back-$((6*7))\r");
      await term.waitForText(/^back-42$/m);
      const screen = await skiff.waitForScreen("web", /^back-42$/m);
      assertMatch(screen, /^\S*[#$] echo back-\$\(\(6\*7\)\)$/m);
      term.type("\x1c");
      assertEquals(await term.exited, 0);
      assertMatch(term.raw, /\[detached from web \(p1\)/);
    } finally {
      term.kill();
    }
  });
});

Deno.test("[attach] detach_key and history_key are read from projects.toml", async () => {
  await withSkiff(async (skiff) => {
    await Deno.mkdir(skiff.env.SKIFF_CONFIG_DIR, { recursive: true });
    await Deno.writeTextFile(
      skiff.configFile,
      '[attach]\ndetach_key = "C-b"\nhistory_key = "none"\n',
    );
    // A pane that shows the keys it gets: Ctrl+\ and Ctrl+] are the pane's now.
    await skiff.ok(["new", "--name", "keys", "--", "sh", "-c", "stty -isig; exec cat -v"]);
    const term = await TestTerminal.start(attachArgv("keys"), {
      env: skiff.env,
      cwd: skiff.env.HOME,
    });
    try {
      await attached(skiff);
      term.type("a\x1cb\x1dc\r");
      await skiff.waitForScreen("keys", /^a\^\\b\^\]c$/m);
      // The kitty keyboard protocol's Ctrl+b detaches too.
      term.type("\x1b[98;5u");
      assertEquals(await term.exited, 0);
      assertMatch(term.raw, /\[detached from keys \(p1\); 'skiff attach keys' attaches again\]/);
    } finally {
      term.kill();
    }
  });
});

Deno.test("a detach key programs need is refused with one line and exit 2", async () => {
  await withSkiff(async (skiff) => {
    await Deno.mkdir(skiff.env.SKIFF_CONFIG_DIR, { recursive: true });
    await Deno.writeTextFile(skiff.configFile, '[attach]\ndetach_key = "C-m"\n');
    const term = await TestTerminal.start(attachArgv("web"), {
      env: skiff.env,
      cwd: skiff.env.HOME,
      cols: 200,
    });
    assertEquals(await term.exited, 2);
    assertEquals(
      term.text().trim(),
      `skiff: ${skiff.configFile}:2:1: 'attach.detach_key' is 'C-m', which is Enter: programs need it`,
    );
  });
});

Deno.test("a PAGER that cannot run is one line over the pane, which stays attached", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "web", "--", ...BASH]);
    const term = await TestTerminal.start(attachArgv("web"), {
      env: { ...skiff.env, PAGER: "no-such-pager -x" },
      cwd: skiff.env.HOME,
      cols: 100,
    });
    try {
      await attached(skiff);
      const from = term.raw.length;
      term.type("\x1d");
      await waitForDrawnAfterRedraw(
        term,
        "The pager 'no-such-pager -x' could not be run; set PAGER to a pager",
        { from },
      );
      term.type("echo still-$((1+1))\r");
      await term.waitForText(/^still-2$/m);
      term.type("\x1c");
      assertEquals(await term.exited, 0);
    } finally {
      term.kill();
    }
  });
});
