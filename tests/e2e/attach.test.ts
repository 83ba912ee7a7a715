import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, MAIN, waitFor, withSkiff } from "../helpers/skiff.ts";
import { TestTerminal, waitForDrawnAfterRedraw } from "../helpers/terminal.ts";
import { startFakeAgent, useFakeAgent } from "../helpers/fake_agent.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

function attachArgv(pane: string): string[] {
  return [Deno.execPath(), "run", "-A", "-q", MAIN, "attach", pane];
}

Deno.test("attach redraws, types, follows resizes, and Ctrl+\\ detaches", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "web", "--", ...BASH]);
    await skiff.ok(["keys", "web", "echo before-attach", "Enter"]);
    await skiff.waitForScreen("web", /^before-attach$/m);

    const term = await TestTerminal.start(attachArgv("web"), {
      env: skiff.env,
      cwd: skiff.env.HOME,
      cols: 100,
      rows: 30,
    });
    try {
      // The redraw shows what was on the pane before we came.
      await term.waitForText(/^before-attach$/m);
      let pane = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
      assertEquals([pane.cols, pane.rows], [100, 30], "the pane takes the terminal's size");
      assertEquals(pane.attached, 1);

      term.type("echo typed-$((2+3))\r");
      await term.waitForText(/^typed-5$/m);
      await skiff.waitForScreen("web", /^typed-5$/m);

      term.resize(70, 20);
      pane = await waitFor("the pane to follow the resize", async () => {
        const p = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
        return p.cols === 70 && p.rows === 20 ? p : undefined;
      });
      term.type("stty size\r");
      await term.waitForText(/^20 70$/m);

      term.type("\x1c");
      assertEquals(await term.exited, 0);
      assertMatch(term.raw, /\[detached from web \(p1\); .skiff attach web. attaches again\]/);
    } finally {
      term.kill();
    }
    // The pane keeps running after the detach.
    await skiff.ok(["keys", "web", "echo after-detach", "Enter"]);
    await skiff.waitForScreen("web", /^after-detach$/m);
    const pane = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
    assertEquals(pane.status, "running");
    assertEquals(pane.attached, 0);
  });
});

Deno.test("two terminals attach at once and both see the same screen", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "pair", "--", ...BASH]);
    const opts = { env: skiff.env, cwd: skiff.env.HOME, cols: 90, rows: 25 };
    const a = await TestTerminal.start(attachArgv("pair"), opts);
    const b = await TestTerminal.start(attachArgv("pair"), opts);
    try {
      await waitFor("both attached", async () => {
        const p = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
        return p.attached === 2;
      });
      a.type("echo from-a\r");
      await b.waitForText(/^from-a$/m);
      b.type("echo from-b\r");
      await a.waitForText(/^from-b$/m);
      a.type("\x1c");
      assertEquals(await a.exited, 0);
      b.type("echo b-still-here\r");
      await b.waitForText(/^b-still-here$/m);
    } finally {
      a.kill();
      b.kill();
    }
  });
});

Deno.test("a full-screen program survives detach and re-attach, redrawn in full", async () => {
  await withSkiff(async (skiff) => {
    const file = `${skiff.root}/words.txt`;
    await Deno.writeTextFile(file, Array.from({ length: 100 }, (_, i) => `word ${i}`).join("\n"));
    await skiff.ok(["new", "--name", "pager", "--size", "80x24", "--", "less", file]);
    await skiff.waitForScreen("pager", /word 22/);
    const opts = { env: skiff.env, cwd: skiff.env.HOME, cols: 80, rows: 24 };
    const first = await TestTerminal.start(attachArgv("pager"), opts);
    await first.waitForText(/^word 0$/m);
    first.type("\x1c");
    await first.exited;
    await skiff.ok(["keys", "pager", "G"]);
    await skiff.waitForScreen("pager", /word 99/);
    const second = await TestTerminal.start(attachArgv("pager"), opts);
    try {
      const text = await second.waitForText(/word 99/);
      assert(!/^word 0$/m.test(text), "the redraw shows the current screen, not the old one");
      second.type("q");
      const end = await second.exited;
      assertEquals(end, 0);
      assertMatch(second.raw, /\[pager \(p1\) exited\]/);
    } finally {
      second.kill();
    }
  });
});

Deno.test("attach to a missing pane fails with exit 3 and one line", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["daemon", "start"]);
    const term = await TestTerminal.start(attachArgv("ghost"), {
      env: skiff.env,
      cwd: skiff.env.HOME,
    });
    assertEquals(await term.exited, 3);
    assertMatch(term.raw, /skiff: No pane 'ghost'\. See 'skiff ls'/);
    // And without a terminal, attach says so.
    const piped = await skiff.run(["attach", "ghost"]);
    assertEquals(piped.code, 2);
    assertEquals(piped.stderr, "skiff: skiff attach needs a terminal on stdin and stdout\n");
  });
});

Deno.test("the attached terminal shows the pane's screen after vim, less and a pager quit", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "web", "--", ...BASH]);
    const file = `${skiff.root}/lines.txt`;
    await Deno.writeTextFile(file, Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n"));
    const term = await TestTerminal.start(
      ["sh", "-c", `clear; echo OUTER; exec ${attachArgv("web").join(" ")}`],
      { env: skiff.env, cwd: skiff.env.HOME, cols: 90, rows: 24 },
    );
    const same = async (what: string) => {
      await waitFor(`the terminal to show the pane's screen ${what}`, async () => {
        const pane = (await skiff.run(["capture", "web"])).stdout.trimEnd();
        return term.text().trimEnd() === pane;
      }, { timeout: 15_000 }).catch(async (error) => {
        const pane = (await skiff.run(["capture", "web"])).stdout;
        throw new Error(
          `${error.message}\n--- terminal ---\n${term.text()}\n--- pane ---\n${pane}`,
        );
      });
    };
    try {
      await waitFor(
        "the attach",
        async () => (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0].attached === 1,
      );
      term.type("clear; echo INSIDE\r");
      await term.waitForText(/^INSIDE$/m);
      await same("before");
      for (
        const [start, quit, shows] of [
          ["vim -u NONE", ":q\r", /^~/m],
          [`less ${file}`, "q", /^line 0$/m],
          ["seq 1 300 | less", "q", /^1$/m],
        ] as const
      ) {
        term.type(`${start}\r`);
        await term.waitForText(shows);
        await same(`in ${start}`);
        term.type(quit);
        await term.waitForText(/^INSIDE$/m);
        assert(!term.text().includes("OUTER"), `after ${start} quit:\n${term.text()}`);
        await same(`after ${start} quit`);
      }
      term.type("\x1c");
      assertEquals(await term.exited, 0);
      // Back in the outer shell's screen: OUTER, then the detach line right under it.
      const lines = term.text().split("\n");
      assertEquals(lines[0], "OUTER");
      assertMatch(lines[1], /^\[detached from web \(p1\); 'skiff attach web' attaches again\]$/);
    } finally {
      term.kill();
    }
  });
});

Deno.test("the pane takes the size of the attached terminal that typed last", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "pair", "--", ...BASH]);
    const size = async () => {
      const p = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
      return `${p.cols}x${p.rows}`;
    };
    const big = await TestTerminal.start(attachArgv("pair"), {
      env: skiff.env,
      cwd: skiff.env.HOME,
      cols: 120,
      rows: 40,
    });
    let small: TestTerminal | undefined;
    try {
      await waitFor("the big one attached", async () => {
        const p = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
        return p.attached === 1 && p.cols === 120;
      });
      small = await TestTerminal.start(attachArgv("pair"), {
        env: skiff.env,
        cwd: skiff.env.HOME,
        cols: 80,
        rows: 24,
      });
      await waitFor("both attached, the last one's size", async () => {
        const p = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
        return p.attached === 2 && p.cols === 80 && p.rows === 24;
      });
      // Typing in the bigger terminal gives it the pane back, before the keys go in.
      big.type("stty size\r");
      await big.waitForText(/^40 120$/m);
      assertEquals(await size(), "120x40");
      small.type("clear; stty size\r");
      await small.waitForText(/^24 80$/m);
      assertEquals(await size(), "80x24");
      // A resize of the terminal in use counts too.
      big.resize(100, 30);
      await waitFor("the resize", async () => (await size()) === "100x30");
    } finally {
      big.kill();
      small?.kill();
    }
  });
});

/** `skiff attach` with no pane, in a terminal. */
function attachLast(skiff: { env: Record<string, string> }): Promise<TestTerminal> {
  return TestTerminal.start([Deno.execPath(), "run", "-A", "-q", MAIN, "attach"], {
    env: skiff.env,
    cwd: skiff.env.HOME,
  });
}

Deno.test("attach with no pane picks the pane a person used last, else the newest", async () => {
  await withSkiff(async (skiff) => {
    for (const name of ["web", "api", "db"]) await skiff.ok(["new", "--name", name, "--", ...BASH]);
    // Nobody used a pane yet: the newest.
    let term = await attachLast(skiff);
    await waitForDrawnAfterRedraw(term, "attached to db (p3), the newest pane (none was used yet)");
    term.type("\x1c");
    assertEquals(await term.exited, 0);
    assertMatch(term.raw, /\[detached from db \(p3\); 'skiff attach db' attaches again\]/);

    // A person attaches to api and types there; then db gets keys from a program.
    term = await TestTerminal.start(attachArgv("api"), { env: skiff.env, cwd: skiff.env.HOME });
    await waitFor("api attached", async () => {
      const panes = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
      return panes.find((p) => p.name === "api")!.attached === 1;
    });
    term.type("echo in-api\r");
    await term.waitForText(/^in-api$/m);
    term.type("\x1c");
    assertEquals(await term.exited, 0);
    await skiff.ok(["keys", "db", "echo from-a-program", "Enter"]);
    await skiff.waitForScreen("db", /^from-a-program$/m);
    const panes = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
    assert(panes.find((p) => p.name === "api")!.used !== null);

    term = await attachLast(skiff);
    try {
      await waitForDrawnAfterRedraw(term, "attached to api (p2), the pane used last");
      await term.waitForText(/^in-api$/m);
      term.type("\x1c");
      assertEquals(await term.exited, 0);
    } finally {
      term.kill();
    }
    // Only running panes count.
    await skiff.ok(["keys", "api", "exit", "Enter"]);
    await waitFor("api to exit", async () => {
      const list = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
      return list.find((p) => p.name === "api")!.status === "exited";
    });
    term = await attachLast(skiff);
    try {
      await waitForDrawnAfterRedraw(term, "attached to db (p3), the pane used last");
      term.type("\x1c");
      assertEquals(await term.exited, 0);
    } finally {
      term.kill();
    }
  });
});

Deno.test("attach with no pane and no running pane says so and exits 3", async () => {
  await withSkiff(async (skiff) => {
    // No skiffd and nothing saved: said at once, and nothing is started.
    let term = await attachLast(skiff);
    assertEquals(await term.exited, 3);
    assertEquals(term.text().trim(), "skiff: No panes to attach to; 'skiff new' starts one");
    assertEquals(await skiff.daemonPid(), undefined, "no skiffd was started");
    await skiff.ok(["daemon", "start"]);
    term = await attachLast(skiff);
    assertEquals(await term.exited, 3);
    assertEquals(term.text().trim(), "skiff: No panes to attach to; 'skiff new' starts one");
    await skiff.ok(["new", "--name", "done", "--", "true"]);
    await waitFor("the pane to exit", async () => {
      const list = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
      return list[0].status === "exited";
    });
    term = await attachLast(skiff);
    assertEquals(await term.exited, 3);
    assertEquals(
      term.text().trim(),
      "skiff: No running pane to attach to (1 exited; 'skiff ls' lists them); 'skiff new' starts one",
    );
  });
});

Deno.test("attach with no pane after a stop starts skiffd and finds the pane used last", async () => {
  await withSkiff(async (skiff) => {
    for (const name of ["web", "api"]) await skiff.ok(["new", "--name", name, "--", ...BASH]);
    let term = await TestTerminal.start(attachArgv("web"), {
      env: skiff.env,
      cwd: skiff.env.HOME,
    });
    await waitFor("web attached", async () => {
      const panes = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
      return panes.find((p) => p.name === "web")!.attached === 1;
    });
    term.type("\x1c");
    assertEquals(await term.exited, 0);
    await skiff.ok(["daemon", "stop"]);
    // The workspace keeps when web was used; the restored panes are new shells.
    term = await attachLast(skiff);
    try {
      await waitForDrawnAfterRedraw(term, "attached to web (p1), the pane used last", {
        timeout: 20_000,
      });
      term.type("\x1c");
      assertEquals(await term.exited, 0);
    } finally {
      term.kill();
    }
  });
});

Deno.test("case 14: a turn a person started and watched end in an attached terminal is seen once they detach", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    await startFakeAgent(skiff, "worker", { env: { FAKE_TURN_MS: "300" } });
    const term = await TestTerminal.start(attachArgv("worker"), {
      env: skiff.env,
      cwd: skiff.env.HOME,
      cols: 100,
      rows: 30,
    });
    try {
      await term.waitForText(/Type a task/);
      // The person types a task and watches its turn end.
      term.type("watch me");
      await term.waitForText(/> watch me/);
      term.type("\r");
      await term.waitForText(/fake reply to: watch me/);
      // While the terminal is attached, the turn end is news as for any pane: unread, with
      // its event (the watcher tells the Skiff agent of a followed pane's turn ends).
      const during = await waitFor("the turn end", async () => {
        const p = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
        return p.state === "idle" && p.unread ? p : undefined;
      });
      assertEquals(during.unread_reasons, ["turn-end"]);
      term.type("\x1c");
      assertEquals(await term.exited, 0);
    } finally {
      term.kill();
    }
    const after = await waitFor("the pane seen", async () => {
      const p = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
      return p.attached === 0 ? p : undefined;
    });
    assertEquals([after.unread, after.unread_reasons], [false, []]);
    // A turn with no one attached is unread, as before.
    await skiff.ok(["keys", "worker", "while away", "Enter"]);
    await waitFor("the unattended turn end", async () => {
      const p = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes[0];
      return p.state === "idle" && p.unread;
    });
  });
});
