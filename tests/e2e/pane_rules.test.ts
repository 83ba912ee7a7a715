/**
 * The rules a pane keeps as a person meets them: a size an agent can draw
 * in, a program that must exist, the caller's environment, `skiff` on the
 * pane's PATH, and a session that follows its pane's new name.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, MAIN, waitFor, withSkiff } from "../helpers/skiff.ts";
import { TestTerminal } from "../helpers/terminal.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

async function pane(skiff: { json: <T>(a: string[]) => Promise<T> }, name: string) {
  const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
  return panes.find((p) => p.name === name);
}

Deno.test("a terminal that reports 0x0 does not resize the pane; tiny sizes are raised to 20x5", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "web", "--", ...BASH]);
    const term = await TestTerminal.start(
      ["sh", "-c", `stty cols 0 rows 0; exec ${Deno.execPath()} run -A -q ${MAIN} attach web`],
      { env: skiff.env, cwd: skiff.env.HOME, cols: 100, rows: 30 },
    );
    try {
      await waitFor("the attach", async () => (await pane(skiff, "web"))?.attached === 1);
      const info = (await pane(skiff, "web"))!;
      assertEquals([info.cols, info.rows], [120, 40], "the pane kept its size");
      term.type("\x1c");
      await term.exited;
    } finally {
      term.kill();
    }
    await skiff.ok(["new", "--name", "tiny", "--size", "2x2", "--", ...BASH]);
    const tiny = (await pane(skiff, "tiny"))!;
    assertEquals([tiny.cols, tiny.rows], [20, 5]);
  });
});

Deno.test("a command that cannot start: exit 3, one line naming it, and no dead pane", async () => {
  await withSkiff(async (skiff) => {
    const missing = await skiff.run(["new", "--", "/nonexistent/prog"]);
    assertEquals(missing.code, 3, missing.stderr);
    assertMatch(missing.stderr, /^skiff: Cannot start '\/nonexistent\/prog': it does not exist/);
    const notOnPath = await skiff.run(["new", "--", "no-such-program-xyz", "arg"]);
    assertEquals(notOnPath.code, 3);
    assertMatch(notOnPath.stderr, /'no-such-program-xyz': it is not on the PATH/);
    // An agent whose program is not installed is refused the same way.
    await Deno.mkdir(join(skiff.root, "config"), { recursive: true });
    await Deno.writeTextFile(
      skiff.configFile,
      '[agents.ghost]\ncommand = "ghost-agent-xyz --fast"\nprompt = "^> (.*)$"\n',
    );
    const agent = await skiff.run(["new", "--agent", "ghost"]);
    assertEquals(agent.code, 3, agent.stderr);
    assertMatch(agent.stderr, /'ghost-agent-xyz'/);
    assertEquals((await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes, []);
    const scrollback = await skiff.run(["capture", "x", "--scrollback", "-3"]);
    assertEquals(scrollback.code, 2);
    assertEquals(
      scrollback.stderr,
      "skiff: Option '--scrollback' needs a whole number of lines, 0 or more\n",
    );
  });
});

Deno.test("a pane gets its caller's PATH and session variables, and skiff on its PATH", async () => {
  await withSkiff(async (skiff) => {
    const tools = join(skiff.root, "tools");
    await Deno.mkdir(tools);
    await Deno.writeTextFile(join(tools, "hello-tool"), "#!/bin/sh\necho hello from tool\n");
    await Deno.chmod(join(tools, "hello-tool"), 0o755);
    // skiffd starts with DISPLAY set and without the tools folder.
    skiff.env.DISPLAY = ":7";
    await skiff.ok(["daemon", "start"]);
    delete skiff.env.DISPLAY;
    skiff.env.PATH = `${tools}:${skiff.env.PATH}`;
    skiff.env.SSH_AUTH_SOCK = "/tmp/agent.sock";
    await skiff.ok(["new", "--name", "sh", "--", ...BASH]);
    const out = join(skiff.root, "env.txt");
    await skiff.ok([
      "keys",
      "sh",
      `{ hello-tool; echo "display=[$DISPLAY] ssh=[$SSH_AUTH_SOCK]"; command -v skiff; } > ${out}`,
      "Enter",
    ]);
    const text = await waitFor("the output", async () => {
      const t = await Deno.readTextFile(out).catch(() => "");
      return t.split("\n").length >= 4 ? t : undefined;
    });
    const [tool, vars, skiffPath] = text.split("\n");
    assertEquals(tool, "hello from tool");
    assertEquals(vars, "display=[] ssh=[/tmp/agent.sock]");
    assertMatch(skiffPath, /skiffd\.bin\/skiff$/);
    // The same program, talking to the skiffd that owns the pane.
    const listing = join(skiff.root, "ls.json");
    await skiff.ok(["keys", "sh", `skiff ls --json > ${listing}`, "Enter"]);
    const panes = await waitFor("skiff ls from inside the pane", async () => {
      try {
        return JSON.parse(await Deno.readTextFile(listing)).panes as PaneInfo[];
      } catch {
        return undefined;
      }
    });
    assertEquals(panes.map((p) => p.name), ["sh"]);
  });
});

Deno.test("rename: a pane alone in a session named after it takes the session along", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "alpha", "--", ...BASH]);
    await skiff.ok(["new", "--name", "beta", "--session", "team", "--", ...BASH]);
    await skiff.ok(["rename", "alpha", "gamma"]);
    await skiff.ok(["rename", "beta", "delta"]);
    assertEquals((await pane(skiff, "gamma"))!.session_name, "gamma");
    assertEquals((await pane(skiff, "delta"))!.session_name, "team", "a named session stays");
    const text = await skiff.ok(["ls"]);
    assert(!/\balpha\b/.test(text), text);
  });
});

Deno.test("a pane's program inherits none of skiffd's sockets or other panes' terminals", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "one", "--", ...BASH]);
    await skiff.ok(["new", "--name", "two", "--", ...BASH]);
    const pid = (await pane(skiff, "two"))!.pid!;
    const links = [...Deno.readDirSync(`/proc/${pid}/fd`)].map((e) =>
      Deno.readLinkSync(`/proc/${pid}/fd/${e.name}`)
    );
    const foreign = links.filter((link) => !/^\/dev\/pts\/\d+$/.test(link));
    assertEquals(foreign, [], `descriptors of skiffd in the pane: ${foreign}`);
  });
});
