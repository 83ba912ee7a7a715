/**
 * End-to-end tests of the terminal dashboard: the real `skiff dash` in a
 * real terminal (a PTY with a screen) against a real skiffd in an isolated
 * HOME.
 */

import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { openDash, press, rowWith, selectedRow } from "../helpers/dash.ts";
import { useFakeAgent } from "../helpers/fake_agent.ts";
import { addProject, defaultWorktreePath, makeRepo } from "../helpers/git.ts";
import { BASH, MAIN, pidAlive, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { sshArgs, SSHD, startSshd } from "../helpers/sshd.ts";
import { TmuxPane } from "../agents/tmux.ts";
import { TestTerminal } from "../helpers/terminal.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

async function panes(skiff: SkiffEnv): Promise<PaneInfo[]> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
}

async function withProjects(skiff: SkiffEnv): Promise<void> {
  const src = `${skiff.root}/src`;
  await Deno.mkdir(src, { recursive: true });
  await useFakeAgent(skiff, {
    extra: `\n[projects.api]\nroot = "${src}"\n\n[projects.web]\nroot = "${src}"\n`,
  });
}

/** Moves the selection down until its row holds `name`. */
async function select(term: TestTerminal, name: string): Promise<void> {
  if (selectedRow(term)?.includes(` ${name} `)) return;
  term.type("g");
  await waitFor("the selection to go up", () => selectedRow(term)?.includes("⎈"), {
    timeout: 5000,
  });
  for (let i = 0; i < 30; i++) {
    if (selectedRow(term)?.includes(` ${name} `)) return;
    const before = selectedRow(term);
    term.type("j");
    await waitFor("the selection to move", () => selectedRow(term) !== before, { timeout: 5000 })
      .catch(() => {});
  }
  throw new Error(`could not select ${name}:\n${term.text()}`);
}

const ESC = "\x1b";
const DETACH = "\x1c";

Deno.test("dash: the list and the live preview, with shells and the fake agent", async () => {
  await withSkiff(async (skiff) => {
    await withProjects(skiff);
    await skiff.ok(["new", "--project", "api", "--name", "build", "--", ...BASH]);
    await skiff.ok(["new", "--project", "api", "--agent", "fake", "--name", "helper"]);
    await skiff.ok(["wait", "helper", "--until", "idle", "--timeout", "30"]);
    await skiff.ok(["new", "--name", "loose", "--", ...BASH]);
    const term = await openDash(skiff, { ready: "helper" });
    try {
      const screen = term.text();
      // The Skiff agent's row first, then the projects with counts, then the panes of no project.
      assertMatch(screen.split("\n")[1], /⎈ +Skipper +claude +off +watcher: /);
      assertMatch(rowWith(term, /^ api /)!, /api +2 panes/);
      assertMatch(rowWith(term, /^ web /)!, /web +0 panes/);
      assertMatch(rowWith(term, "No project")!, /No project +1 pane/);
      assertMatch(rowWith(term, /^[ ›] +helper /)!, /helper +fake +idle +\d+s/);
      assertMatch(rowWith(term, /^[ ›] +build /)!, /build +- +shell +\d+s/);
      // The preview follows the selected pane, live.
      await select(term, "build");
      await term.waitForText(/build \(p1\) no agent · shell · api/);
      await skiff.ok(["keys", "build", "echo preview-$((6*7))", "Enter"]);
      await term.waitForText("│preview-42");
      await select(term, "helper");
      await term.waitForText(/helper \(p2\) fake · idle/);
      await term.waitForText("│> Type a task");
    } finally {
      term.kill();
    }
  });
});

Deno.test("dash: live state changes: an agent works then goes idle and unread, a pane exits", async () => {
  await withSkiff(async (skiff) => {
    await withProjects(skiff);
    await skiff.ok([
      "new",
      "--project",
      "api",
      "--agent",
      "fake",
      "--name",
      "helper",
      "--env",
      "FAKE_TURN_MS=1500",
    ]);
    await skiff.ok(["wait", "helper", "--until", "idle", "--timeout", "30"]);
    await skiff.ok(["new", "--project", "web", "--name", "build", "--", ...BASH]);
    const term = await openDash(skiff, { ready: "build" });
    try {
      const send = skiff.run(["send", "helper", "Fix the flaky test", "--enter"]);
      await term.waitForText(/helper +fake +working/);
      assertEquals((await send).code, 0);
      await term.waitForText(/● helper +fake +idle +\d+s +turn-end/);
      assertMatch(rowWith(term, /^ api /)!, /1 pane · 1 unread/);
      await skiff.ok(["keys", "build", "exit", "Enter"]);
      await term.waitForText(/● build +- +exited +\d+s +exit/);
    } finally {
      term.kill();
    }
  });
});

Deno.test("dash: filter, Enter opens a pane, typing reaches it, Ctrl+\\ comes back with it running", async () => {
  await withSkiff(async (skiff) => {
    await withProjects(skiff);
    await skiff.ok(["new", "--project", "api", "--name", "alpha", "--", ...BASH]);
    await skiff.ok(["new", "--project", "web", "--name", "beta", "--", ...BASH]);
    const term = await openDash(skiff, { ready: "beta" });
    try {
      await press(term, "/web", "Filter: web");
      await waitFor("the filter to hide alpha", () => !rowWith(term, " alpha "));
      assert(rowWith(term, " beta "), term.text());
      await press(term, "\r", /filter: web/);
      await select(term, "beta");
      // Enter: the pane full screen, as 'skiff attach' shows it.
      term.type("\r");
      await waitFor("the attach", () => !term.text().includes("watcher: "));
      term.type("echo typed-$((20+3))\r");
      await term.waitForText("typed-23");
      term.type(DETACH);
      await term.waitForText(/watcher: /);
      assert(selectedRow(term)?.includes(" beta "), `the selection is kept:\n${term.text()}`);
      const beta = (await panes(skiff)).find((p) => p.name === "beta")!;
      assertEquals([beta.status, beta.attached], ["running", 0]);
      assertMatch(await skiff.ok(["capture", "beta"]), /typed-23/);
      // Esc clears the filter.
      await press(term, ESC, " alpha ");
    } finally {
      term.kill();
    }
  });
});

Deno.test("dash: the jump key, a guarded send with a refusal, and kill after a confirmation", async () => {
  await withSkiff(async (skiff) => {
    await withProjects(skiff);
    await skiff.ok(["new", "--project", "api", "--name", "shell", "--", ...BASH]);
    await skiff.ok(["new", "--project", "api", "--agent", "fake", "--name", "helper"]);
    await skiff.ok(["wait", "helper", "--until", "idle", "--timeout", "30"]);
    await skiff.ok(["new", "--project", "web", "--agent", "fake", "--name", "asker"]);
    await skiff.ok(["wait", "asker", "--until", "idle", "--timeout", "30"]);
    const term = await openDash(skiff, { ready: "asker" });
    try {
      // Nothing needs a person yet: the jump says so.
      await press(term, "w", "No pane needs you");
      // asker waits at an approval: w goes there.
      await skiff.ok(["send", "asker", "APPROVE rm -rf build", "--enter"]).catch(() => "");
      await term.waitForText(/asker +fake +waiting/);
      await press(term, "w", /› +● asker/);

      // s on a shell: the status row says why, and nothing is typed.
      await select(term, "shell");
      await press(term, "s", /s: shell \(p1\) runs no known agent/);
      // s on the waiting agent: skiffd refuses, and the reason shows in words.
      await select(term, "asker");
      await press(term, "s", "Send to asker: ");
      await press(term, "continue please\r", /approval|Approval/);
      const asker = await skiff.ok(["capture", "asker"]);
      assert(!asker.includes("continue please"), `a refused send typed:\n${asker}`);
      // s on the idle agent sends, as skiff send --enter does.
      await select(term, "helper");
      await press(term, "s", "Send to helper: ");
      await press(term, "Write the notes\r", /Sent to helper \(p2\); a turn started/);
      await skiff.waitForScreen("helper", "Write the notes");

      // x asks first; n keeps the pane, y kills it.
      await select(term, "shell");
      await press(term, "x", /Kill shell \(p1\) and end its process\? y\/n/);
      await press(term, "n", "Kept shell (p1)");
      assert((await panes(skiff)).some((p) => p.name === "shell"));
      await press(term, "x", /Kill shell/);
      await press(term, "y", "Killed shell (p1)");
      await waitFor(
        "the pane to go",
        async () => !(await panes(skiff)).some((p) => p.name === "shell"),
      );
      await waitFor("the row to go", () => !rowWith(term, /^ +shell +- /));
    } finally {
      term.kill();
    }
  });
});

Deno.test("dash: the ledger view: plans with tasks, Enter opens a task's pane, o shows its result", async () => {
  await withSkiff(async (skiff) => {
    await withProjects(skiff);
    await skiff.ok(["new", "--project", "api", "--name", "rev", "--", ...BASH]);
    const plan = (await skiff.ok(["ledger", "add", "--task", "Release 2.0"])).split(" ")[0];
    const out = await skiff.ok([
      "ledger",
      "add",
      "--pane",
      "rev",
      "--task",
      "Review the parser\nwith care",
      "--parent",
      plan,
    ]);
    const [uid, result] = out.trim().split(" ");
    await Deno.mkdir(result.slice(0, result.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(result, "# Review\nAll good: ship it.\n");
    const term = await openDash(skiff, { ready: " rev " });
    try {
      // The preview of the task's pane shows its tasks.
      await select(term, "rev");
      await term.waitForText(new RegExp(`${uid} pending +Review the parser`));
      await press(term, "l", " Ledger ");
      await term.waitForText(new RegExp(`${plan} plan +Release 2\\.0`));
      await term.waitForText(new RegExp(`  ${uid} pending +rev +Review the parser`));
      // A task added meanwhile shows up by itself.
      await skiff.ok(["ledger", "add", "--pane", "rev", "--task", "Then the lexer"]);
      await term.waitForText(/pending +rev +Then the lexer/);
      // Enter on the plan says why nothing opens; on the task, it opens its pane.
      await press(term, "\r", /is a plan; it has no pane/);
      await press(term, "j", new RegExp(`›? *${uid}`));
      await press(term, "o", "All good: ship it.");
      await press(term, ESC, " Ledger ");
      term.type("\r");
      await waitFor("the attach", () => !term.text().includes(" Ledger "));
      term.type("echo in-rev\r");
      await skiff.waitForScreen("rev", "in-rev");
      term.type(DETACH);
      await term.waitForText(" Ledger ");
    } finally {
      term.kill();
    }
  });
});

/** The codes that give a terminal back: main screen, cursor shown, modes reset. */
function restored(raw: string): boolean {
  const tail = raw.slice(raw.lastIndexOf("\x1b[?1049h"));
  return tail.includes("\x1b[?1049l") && tail.includes("\x1b[?25h") &&
    tail.includes("\x1b[?2004l") &&
    tail.includes("\x1b[?7h");
}

Deno.test("dash: q, SIGHUP and SIGTERM give the terminal back; a resize reflows", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "solo", "--", ...BASH]);
    const term = await openDash(skiff, { cols: 120, rows: 30, ready: " solo " });
    try {
      // Wide: the preview beside the list.
      assert(rowWith(term, " solo (p1)")?.includes("│"), term.text());
      term.resize(80, 24);
      await waitFor(
        "the preview below the list",
        () => term.text().split("\n").some((l) => /^─{80}$/.test(l)),
      );
      assertEquals(term.text().split("\n").length <= 24, true);
      term.type("q");
      assertEquals(await term.exited, 0);
      assert(restored(term.raw), "q left the terminal as it was");
    } finally {
      term.kill();
    }
    for (const signal of ["SIGHUP", "SIGTERM"] as const) {
      const other = await openDash(skiff, { ready: " solo " });
      try {
        other.signal(signal);
        await other.exited;
        assert(restored(other.raw), `${signal} left the terminal as it was`);
      } finally {
        other.kill();
      }
    }
  });
});

Deno.test("dash: reconnects through a reload and a restart of skiffd, selection kept; a stop ends it", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "one", "--", ...BASH]);
    await skiff.ok(["new", "--name", "two", "--", ...BASH]);
    const term = await openDash(skiff, { ready: " two " });
    try {
      await select(term, "two");
      await skiff.ok(["daemon", "reload"]);
      await skiff.ok(["keys", "two", "echo after-reload", "Enter"]);
      await term.waitForText("│after-reload");
      const before = (await panes(skiff)).find((p) => p.name === "two")!;
      await skiff.ok(["daemon", "restart"]);
      // The pane comes back as a new shell under its old id; the dashboard follows it.
      await waitFor(
        "the restored pane",
        async () =>
          (await panes(skiff)).find((p) => p.name === "two")?.generation !== before.generation,
      );
      await skiff.ok(["keys", "two", "echo after-restart", "Enter"]);
      await term.waitForText("│after-restart", { timeout: 20_000 });
      assert(selectedRow(term)?.includes(" two "), `the selection is kept:\n${term.text()}`);
      await skiff.ok(["daemon", "stop"]);
      assertEquals(await term.exited, 4);
      assertMatch(term.text(), /skiffd was stopped; the dashboard ends/);
    } finally {
      term.kill();
    }
  });
});

Deno.test("skiff alone: the dashboard in a terminal, the help when piped", async () => {
  await withSkiff(async (skiff) => {
    const piped = await skiff.run([]);
    assertEquals(piped.code, 0);
    assertMatch(piped.stdout, /Usage: skiff/);
    const term = await openDash(skiff, { args: [] });
    try {
      await press(term, "?", /Keys.*any key closes/);
      await press(term, "x", "j/k move");
      term.type("q");
      assertEquals(await term.exited, 0);
    } finally {
      term.kill();
    }
    const dash = await skiff.run(["dash"]);
    assertEquals(dash.code, 2);
    assertMatch(dash.stderr, /skiff dash needs a terminal on stdin and stdout/);
    const json = await skiff.run(["dash", "--json"]);
    assertEquals(json.code, 2);
    assertMatch(json.stderr, /prints no JSON; 'skiff ls --json' lists the panes/);
  });
});

Deno.test("dash: an uncaught error gives the terminal back too", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "solo", "--", ...BASH]);
    const term = await openDash(skiff, { ready: " solo " });
    try {
      term.type("!");
      assertEquals(await term.exited, 1);
      assert(restored(term.raw), "the error left the terminal as it was");
      assertMatch(term.raw, /SKIFF_FAULT_DASH_ERROR: an uncaught error/);
    } finally {
      term.kill();
    }
  }, { SKIFF_FAULT_DASH_ERROR: "!" });
});

Deno.test("dash: c makes a pane, r renames it, m marks one seen; S says why it cannot open", async () => {
  await withSkiff(async (skiff) => {
    await withProjects(skiff);
    await skiff.ok(["new", "--project", "web", "--name", "done", "--", ...BASH]);
    await skiff.ok(["keys", "done", "exit", "Enter"]);
    const term = await openDash(skiff, { ready: /● done/ });
    try {
      await press(term, "S", /S: .*Skiff agent is off/);
      await press(term, "c", /New pane: project \(Enter for none; api, web\): /);
      await press(term, "api\r", /New pane: agent \(Enter for a shell; .*fake/);
      await press(term, "\r", /New pane: name/);
      await press(term, "fresh\r", /Made fresh \(p2\)/);
      assert(selectedRow(term)?.includes(" fresh "), term.text());
      const made = (await panes(skiff)).find((p) => p.name === "fresh")!;
      assertEquals([made.project, made.status], ["api", "running"]);
      await press(term, "r", "Rename fresh to: ");
      await press(term, "bad name\r", /Bad pane name|letters, digits/);
      await press(term, "r", "Rename fresh to: ");
      await press(term, "renamed\r", "Renamed to renamed");
      await waitFor("the row's new name", () => rowWith(term, /^› +renamed /) !== undefined);
      // m on a read pane says why; on the unread one it marks it seen.
      await press(term, "m", /m: renamed \(p2\) is not unread/);
      await select(term, "done");
      await press(term, "m", "Marked done (p1) seen");
      await waitFor("the unread mark to go", () => !rowWith(term, /● done/));
      assertEquals((await panes(skiff)).find((p) => p.name === "done")!.unread, false);
    } finally {
      term.kill();
    }
  });
});

Deno.test("case 5: dash: c in a project in a Git repository asks for a worktree, as skiff new --worktree", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    const repo = await makeRepo(`${skiff.root}/repo`);
    await addProject(skiff, "api", repo);
    await skiff.ok(["new", "--project", "api", "--name", "main", "--", ...BASH]);
    const term = await openDash(skiff, { ready: " main " });
    try {
      await press(term, "c", /New pane: project \(Enter for none; api\): /);
      await press(term, "api\r", /New pane: agent \(Enter for a shell; .*fake/);
      await press(term, "\r", /New pane: worktree of api's repository \(Enter for none\): /);
      await press(term, "login\r", /New pane: name \(Enter for login\): /);
      await press(term, "\r", /Made login \(p2\)/);
      const made = (await panes(skiff)).find((p) => p.name === "login")!;
      assertEquals([made.project, made.worktree?.name, made.worktree?.branch], [
        "api",
        "login",
        "skiff/login",
      ]);
      assertEquals(made.cwd, defaultWorktreePath(skiff, "api", "login"));
      // Enter for none: the pane starts in the project's root, as before.
      await press(term, "c", /New pane: project/);
      await press(term, "api\r", /New pane: agent/);
      await press(term, "\r", /New pane: worktree/);
      await press(term, "\r", /New pane: name \(Enter for one made up\): /);
      await press(term, "plain\r", /Made plain \(p3\)/);
      const plain = (await panes(skiff)).find((p) => p.name === "plain")!;
      assertEquals([plain.worktree, plain.cwd], [null, repo]);
      // A bad worktree name is refused in one line, and no pane is made.
      await press(term, "c", /New pane: project/);
      await press(term, "api\r", /New pane: agent/);
      await press(term, "\r", /New pane: worktree/);
      await press(term, "no good\r", /New pane: name/);
      await press(term, "\r", /worktree name|letters, digits/i);
      assertEquals((await panes(skiff)).length, 3);
      // An agent is started as 'skiff new --agent' starts it: with a conversation Skiff chose,
      // which a restart resumes.
      await press(term, "c", /New pane: project/);
      await press(term, "api\r", /New pane: agent/);
      await press(term, "fake\r", /New pane: worktree/);
      await press(term, "\r", /New pane: name \(Enter for fake\): /);
      await press(term, "\r", /Made fake \(p4\)/);
      await skiff.ok(["new", "--project", "api", "--agent", "fake", "--name", "by-cli"]);
      const listed = await panes(skiff);
      const byDash = listed.find((p) => p.name === "fake")!;
      const byCli = listed.find((p) => p.name === "by-cli")!;
      assertEquals(byDash.conversation?.agent, "fake");
      assertEquals([byDash.project, byDash.cwd, byDash.command.slice(0, -2)], [
        byCli.project,
        byCli.cwd,
        byCli.command.slice(0, -2),
      ]);
    } finally {
      term.kill();
    }
  });
});

Deno.test("dash inside tmux: list, Enter, typing, Ctrl+\\ back, q gives tmux's pane back", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "intmux", "--", ...BASH]);
    const socket = `skiff-dash-${Deno.pid}-${Date.now()}`;
    const tmux = await TmuxPane.start({
      socket,
      cols: 100,
      rows: 30,
      cwd: skiff.env.HOME,
      env: skiff.env,
    });
    const screen = async (pattern: RegExp | string) => {
      let last = "";
      await waitFor(`tmux to show ${pattern}`, async () => {
        last = await tmux.capture();
        return typeof pattern === "string" ? last.includes(pattern) : pattern.test(last);
      }).catch((error) => {
        throw new Error(`${error.message}\n${last}`);
      });
      return last;
    };
    const format = async (name: string) =>
      (await tmux.tmux("display-message", "-p", "-t", "main", `#{${name}}`)).trim();
    try {
      await tmux.type(`${Deno.execPath()} run -A -q ${MAIN} dash`);
      await tmux.keys("Enter");
      await screen(/› +intmux +- +shell/);
      assertEquals(await format("alternate_on"), "1");
      await tmux.keys("Enter");
      await waitFor("the attach", async () => !(await tmux.capture()).includes("watcher: "));
      await tmux.type("echo inside-$((6*7))");
      await tmux.keys("Enter");
      await screen("inside-42");
      await tmux.keys("C-\\");
      await screen(/› +intmux/);
      await tmux.type("q");
      await screen(/[$#] *$/m);
      assertEquals(await format("alternate_on"), "0");
      assertEquals(await format("cursor_flag"), "1");
    } finally {
      await tmux.kill();
    }
  });
});

Deno.test({
  name: "dash over a real SSH login: the list, a pane opened and left, and a dropped link",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    assert(await Deno.stat(SSHD).then(() => true, () => false), `${SSHD} is missing`);
    await withSkiff(async (skiff) => {
      await skiff.ok(["new", "--name", "remote", "--", ...BASH]);
      const sshDir = `${skiff.root}/ssh`;
      await Deno.mkdir(sshDir);
      const sshd = await startSshd(sshDir, skiff.env);
      const term = await TestTerminal.start(sshArgs(sshd), {
        env: { ...skiff.env, SSH_AUTH_SOCK: "" },
        cwd: skiff.root,
        cols: 100,
        rows: 30,
      });
      try {
        await waitFor("the login shell", () => {
          term.type("echo LOGGED-$((6*7))\r");
          return /LOGGED-42/.test(term.text());
        }, { timeout: 20_000, interval: 1000 });
        term.type(`'${Deno.execPath()}' run -A -q '${MAIN}' dash\r`);
        await term.waitForText(/› +remote +- +shell/, { timeout: 30_000 });
        term.type("\r");
        await waitFor("the attach", () => !term.text().includes("watcher: "));
        term.type("echo over-ssh-$((6*7))\r");
        await term.waitForText("over-ssh-42");
        term.type(DETACH);
        await term.waitForText(/› +remote/);
        // The link drops: sshd hangs up the login, the dashboard gets SIGHUP and ends.
        // The dashboard of this test's login: the one whose environment names this test's folders.
        const found = await new Deno.Command("pgrep", {
          args: ["-f", `${MAIN} dash`],
          stdout: "piped",
        })
          .output();
        const dashPid = new TextDecoder().decode(found.stdout).trim().split("\n").map(Number)
          .find((pid) => {
            try {
              return Deno.readTextFileSync(`/proc/${pid}/environ`).includes(skiff.root);
            } catch {
              return false;
            }
          }) ?? 0;
        assert(dashPid > 0, "the dashboard runs on the far side");
        term.kill();
        await waitFor("the dashboard to end with the link", () => !pidAlive(dashPid), {
          timeout: 15_000,
        });
        const [pane] = await panes(skiff);
        assertEquals([pane.name, pane.status], ["remote", "running"]);
      } finally {
        term.kill();
        await sshd.stop();
      }
    });
  },
});

Deno.test("dash: the detach key of [attach] comes back, and ? names it", async () => {
  await withSkiff(async (skiff) => {
    await Deno.mkdir(skiff.env.SKIFF_CONFIG_DIR, { recursive: true });
    await Deno.writeTextFile(skiff.configFile, '[attach]\ndetach_key = "C-b"\n');
    await skiff.ok(["new", "--name", "keyed", "--", ...BASH]);
    const term = await openDash(skiff, { ready: " keyed " });
    try {
      await press(term, "?", /Enter +open the pane full screen; Ctrl\+b comes back here/);
      await press(term, "x", "j/k move");
      term.type("\r");
      await waitFor("the attach", () => !term.text().includes("watcher: "));
      // The pane takes the terminal's size as it is opened; bash redraws its prompt on that.
      await waitFor("the pane at the terminal's size", async () => {
        const pane = (await panes(skiff)).find((p) => p.name === "keyed")!;
        return pane.attached === 1 && pane.rows === 30;
      });
      term.type("echo still-$((6*7))\r");
      await term.waitForText("still-42");
      term.type("\x02");
      await term.waitForText(/› +keyed/);
    } finally {
      term.kill();
    }
  });
});

Deno.test("dash: keys typed before the panes are listed act on them once they are", async () => {
  await withSkiff(async (skiff) => {
    for (const name of ["first", "second", "third"]) {
      await skiff.ok(["new", "--name", name, "--", ...BASH]);
    }
    // Typed at once, while the dashboard still starts: they wait for the list.
    const term = await TestTerminal.start([Deno.execPath(), "run", "-A", "-q", MAIN, "dash"], {
      env: skiff.env,
      cwd: skiff.env.HOME,
      cols: 120,
      rows: 30,
    });
    try {
      term.type("jj");
      await term.waitForText(/watcher: /);
      await waitFor(
        "the selection on the third pane",
        () => selectedRow(term)?.includes(" third "),
        {
          timeout: 10_000,
        },
      );
      // And they keep working after.
      term.type("k");
      await waitFor(
        "the selection on the second pane",
        () => selectedRow(term)?.includes(" second "),
        {
          timeout: 10_000,
        },
      );
    } finally {
      term.kill();
    }
  });
});

Deno.test("dash: projects.toml is followed: a new project shows, a broken file is told in the header until mended", async () => {
  await withSkiff(async (skiff) => {
    await withProjects(skiff);
    await skiff.ok(["new", "--project", "api", "--name", "build", "--", ...BASH]);
    const term = await openDash(skiff, { ready: " build " });
    try {
      // An edit with no pane event behind it reaches the list by itself.
      await skiff.ok(["project", "add", "docs", `${skiff.root}/src`]);
      await term.waitForText(/ docs +0 panes/);
      const good = await Deno.readTextFile(skiff.configFile);
      await Deno.writeTextFile(skiff.configFile, good + "\n[projects.broken\n");
      await waitFor("the header to tell the broken file", () => {
        return /projects\.toml:\d+:\d+/.test(term.text().split("\n")[0]);
      }, { timeout: 10_000 });
      // The last good projects stay.
      assertMatch(rowWith(term, /^ docs /)!, /docs +0 panes/);
      assertMatch(rowWith(term, /^ api /)!, /api +1 pane/);
      await Deno.writeTextFile(skiff.configFile, good);
      await waitFor("the header to be clean again", () => {
        return !term.text().split("\n")[0].includes("projects.toml");
      }, { timeout: 10_000 });
      // A project removed goes from the list too.
      await skiff.ok(["project", "rm", "docs"]);
      await waitFor("docs to go", () => !rowWith(term, /^ docs /), { timeout: 10_000 });
    } finally {
      term.kill();
    }
  });
});
