/**
 * Issue 21 items 10 and 11: typos in `projects.toml` are refused with
 * `file:line:col`, the key and the nearest known key (exit 2), a reload
 * that meets one keeps the running config, and TOML syntax errors say what
 * is likely wrong.
 */

import { dirname, join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { withSkiff } from "../helpers/skiff.ts";

Deno.test("unknown keys and tables in projects.toml are refused: file:line:col, the key, the nearest known key, exit 2", async () => {
  await withSkiff(async (skiff) => {
    await Deno.mkdir(dirname(skiff.configFile), { recursive: true });
    const site = `[projects.site]\nroot = "${skiff.root}"\n`;
    const cases: [string, RegExp][] = [
      [
        `[daemon]\nscrolback = 500\n`,
        /projects\.toml:2:1: unknown key 'scrolback' in \[daemon\]; did you mean 'scrollback'\?$/,
      ],
      [
        `[skiff_agent]\nfoldr = "~/agent"\n`,
        /projects\.toml:2:1: unknown key 'foldr' in \[skiff_agent\]; did you mean 'folder'\?$/,
      ],
      [
        `${site}\n[projeccts.x]\nroot = "/tmp"\n`,
        /projects\.toml:4:2: unknown table 'projeccts'; did you mean 'projects'\?$/,
      ],
      [
        `[skipper]\nland = "auto"\n`,
        /projects\.toml:1:2: unknown table 'skipper'; the Skiff agent's settings live under \[skiff_agent\] \(land, agent, folder, …\)$/,
      ],
      [
        `${site}comand = "make"\n`,
        /projects\.toml:3:1: unknown key 'comand' in \[projects\.site\]; did you mean 'command'\?$/,
      ],
      [
        `[agents.mine]\ncommand = "mine"\nprompt = '^> (.*)$'\ncontinue = "--continue"\n`,
        /projects\.toml:4:1: unknown key 'continue' in \[agents\.mine\]; did you mean 'continue_args'\?$/,
      ],
    ];
    for (const [text, pattern] of cases) {
      await Deno.writeTextFile(skiff.configFile, text);
      // A command that reads the config, and one that would start skiffd: both refuse.
      for (const args of [["agents"], ["daemon", "start"]]) {
        const result = await skiff.run(args);
        assertEquals(result.code, 2, `${args.join(" ")} with ${text}: ${result.stderr}`);
        assertEquals(result.stderr.trim().split("\n").length, 1, "one line");
        assertMatch(result.stderr.trim(), pattern);
      }
      const json = await skiff.run(["agents", "--json"]);
      const error = JSON.parse(json.stderr).error;
      assertEquals([error.code, error.exit], ["usage", 2]);
      assertEquals(await Deno.readTextFile(skiff.configFile), text, "the file is left alone");
    }
    assertEquals((await skiff.run(["daemon", "status"])).code, 4, "no skiffd was started");
  });
});

Deno.test("a reload that meets an unknown key is refused and keeps the running config", async () => {
  await withSkiff(async (skiff) => {
    await Deno.mkdir(dirname(skiff.configFile), { recursive: true });
    const late = join(skiff.root, "late");
    await Deno.mkdir(late);
    const good = `[projects.site]\nroot = "${skiff.root}"\n`;
    await Deno.writeTextFile(skiff.configFile, good);
    await skiff.ok(["daemon", "start"]);
    const pid = await skiff.daemonPid();
    // The edit adds a project and a typo: neither is taken.
    await Deno.writeTextFile(
      skiff.configFile,
      `${good}[projects.late]\nroot = "${late}"\n\n[daemon]\nscrolback = 10\n`,
    );
    const reload = await skiff.run(["daemon", "reload"]);
    assertEquals(reload.code, 2, reload.stderr);
    assertMatch(reload.stderr, /projects\.toml:7:1: unknown key 'scrolback' in \[daemon\]/);
    const refused = await skiff.run(["new", "--project", "late", "--", "true"]);
    assertEquals(refused.code, 3, `the broken edit's project is not seen: ${refused.stderr}`);
    const pane = await skiff.json<{ pane: { project: string } }>([
      "new",
      "--project",
      "site",
      "--",
      "bash",
      "--norc",
    ]);
    assertEquals(pane.pane.project, "site", "the running config still serves");
    // An unknown key in a custom agent is refused by a reload too.
    await Deno.writeTextFile(
      skiff.configFile,
      `${good}[agents.mine]\ncommand = "mine"\nprompt = '(.*)'\nbussy = "x"\n`,
    );
    const agents = await skiff.run(["daemon", "reload"]);
    assertEquals(agents.code, 2, agents.stderr);
    assertMatch(
      agents.stderr,
      /projects\.toml:6:1: unknown key 'bussy' in \[agents\.mine\]; did you mean 'busy'\?/,
    );
    assertEquals(await skiff.daemonPid(), pid, "the same skiffd runs on");
    const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log"));
    assert(log.includes("unknown key 'scrolback'"), "skiffd's log says why it kept the old config");
  });
});

Deno.test("a TOML syntax error says what is likely wrong: a table header missing its ']'", async () => {
  await withSkiff(async (skiff) => {
    await Deno.mkdir(dirname(skiff.configFile), { recursive: true });
    const cases: [string, RegExp][] = [
      [
        "[daemon\nscrollback = 500\n",
        /projects\.toml:1:8: illegal character in key; is the '\]' missing\? A table header is written \[name\]$/,
      ],
      [
        `[daemon]\nshell = /bin/zsh\n`,
        /projects\.toml:2:9: invalid value; text needs quotes: "\/bin\/zsh"$/,
      ],
      [
        `[skiff_agent]\nenabled = True\n`,
        /projects\.toml:2:11: invalid value; true and false are written in lower case$/,
      ],
    ];
    for (const [text, pattern] of cases) {
      await Deno.writeTextFile(skiff.configFile, text);
      for (const args of [["project", "ls"], ["daemon", "start"]]) {
        const result = await skiff.run(args);
        assertEquals(result.code, 2, result.stderr);
        assertEquals(result.stderr.trim().split("\n").length, 1, "one line");
        assertMatch(result.stderr.trim(), pattern);
      }
    }
  });
});
