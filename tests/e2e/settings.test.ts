/**
 * End-to-end tests of `skiff settings` and `skiff settings set`: defaults
 * filled in, whether the folder can be used, one key written with the rest
 * of the file kept, and bad values refused with no change. Also the config
 * rules for the folder: absolute or `~/` (issue 8 item 12), and no default
 * folder without HOME (item 13).
 */

import { join } from "node:path";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { exists } from "../helpers/ledger.ts";
import { withSkiff } from "../helpers/skiff.ts";
import type { SettingsReport } from "../../lib/skipper/mod.ts";

Deno.test("settings: defaults filled in, and whether the folder can be used", async () => {
  await withSkiff(async (skiff) => {
    const report = await skiff.json<SettingsReport>(["settings"]);
    assertEquals(report.settings, {
      enabled: false,
      agent: "claude",
      name: "Skipper",
      continue: true,
      folder: "~/skiff-agent",
      land: "ask",
    });
    assertEquals(report.defaults, ["enabled", "agent", "name", "continue", "folder", "land"]);
    assertEquals(report.folder, {
      path: join(skiff.env.HOME, "skiff-agent"),
      kind: "new",
      usable: true,
      reason: null,
    });
    const text = await skiff.ok(["settings"]);
    assertEquals(text.split("\n").slice(0, 2), [
      "enabled   false  [default]",
      "agent     claude  [default]",
    ]);
    assertEquals(await exists(skiff.configFile), false, "reading made no file");

    // A folder that cannot be used says why, on the line under it.
    await Deno.mkdir(skiff.env.SKIFF_CONFIG_DIR);
    await Deno.writeTextFile(skiff.configFile, `[skiff_agent]\nfolder = "~"\n`);
    const home = await skiff.json<SettingsReport>(["settings"]);
    assertEquals([home.folder.usable, home.folder.reason], [false, "it is your home folder"]);
    assertEquals(
      (await skiff.ok(["settings"])).split("\n").at(-2),
      `${" ".repeat(10)}cannot be used: it is your home folder`,
    );
  });
});

Deno.test("settings set: writes one key and keeps the file; a bad value changes nothing", async () => {
  await withSkiff(async (skiff) => {
    await Deno.mkdir(skiff.env.SKIFF_CONFIG_DIR);
    const web = join(skiff.root, "web");
    await Deno.mkdir(web);
    const original = [
      "# my projects",
      "[projects.web]",
      `root = "${web}"   # the site`,
      "",
      "[skiff_agent]",
      "# who runs it",
      'agent = "codex"',
      "",
    ].join("\n");
    await Deno.writeTextFile(skiff.configFile, original);
    assertEquals(await skiff.ok(["settings", "set", "enabled", "true"]), "enabled = true\n");
    assertEquals(await skiff.ok(["settings", "set", "name", "Ship Mate"]), "name = Ship Mate\n");
    await skiff.ok(["settings", "set", "continue", "false"]);
    await skiff.ok(["settings", "set", "agent", "claude"]);
    await skiff.ok(["settings", "set", "folder", "~/.skiff-agent"]);
    assertEquals(await skiff.ok(["settings", "set", "land", "auto"]), "land = auto\n");
    assertEquals(
      await Deno.readTextFile(skiff.configFile),
      original.replace(
        'agent = "codex"',
        'agent = "claude"\nenabled = true\nname = "Ship Mate"\ncontinue = false\nfolder = "~/.skiff-agent"\nland = "auto"',
      ),
    );
    const report = await skiff.json<SettingsReport>(["settings"]);
    assertEquals(report.defaults, []);
    assertEquals(report.settings.land, "auto");
    assertEquals(report.folder.path, join(skiff.env.HOME, ".skiff-agent"));

    const saved = await Deno.readTextFile(skiff.configFile);
    const bad: [string[], RegExp][] = [
      [["enabled", "yes"], /Bad value for 'enabled': use true or false, not 'yes'/],
      [["continue", "1"], /Bad value for 'continue': use true or false/],
      [["agent", "nope"], /Bad value for 'agent': no agent 'nope'; known agents: claude, codex/],
      // An empty VALUE is refused by the CLI kit itself, before the setting is read (issue 28, case 11).
      [["name", ""], /Argument VALUE is empty. See 'skiff settings set --help'/],
      [["name", "Mate!"], /Bad value for 'name'/],
      [["folder", "relative/dir"], /'relative\/dir' must be an absolute path or start with ~\//],
      [["folder", "/"], /cannot use \/: it is the root folder/],
      [["folder", web], /it is project 'web'/],
      [["land", "always"], /Bad value for 'land': use ask .* or auto .*, not 'always'/],
      [
        ["colour", "blue"],
        /Bad value 'colour' for KEY: use enabled, agent, name, continue, folder or land/,
      ],
    ];
    for (const [args, why] of bad) {
      const result = await skiff.run(["settings", "set", ...args]);
      assertEquals(result.code, 2, `${args}: ${result.stderr}`);
      assertEquals(result.stdout, "");
      assertMatch(result.stderr, /^skiff: [^\n]+\n$/, "one line");
      assertMatch(result.stderr, why);
      assertEquals(await Deno.readTextFile(skiff.configFile), saved, `${args}: no change`);
    }
    const json = await skiff.run(["settings", "set", "enabled", "maybe", "--json"]);
    assertEquals(JSON.parse(json.stderr).error.code, "usage");

    // A broken file is left as it is.
    await Deno.writeTextFile(skiff.configFile, "[skiff_agent\n");
    const broken = await skiff.run(["settings", "set", "enabled", "false"]);
    assertEquals(broken.code, 2);
    assertMatch(broken.stderr, /projects\.toml:1:\d+: /);
    assertEquals(await Deno.readTextFile(skiff.configFile), "[skiff_agent\n");
  });
});

Deno.test("config: a relative Skiff agent folder is one clear error, not a folder per cwd (item 12)", async () => {
  await withSkiff(async (skiff) => {
    await Deno.mkdir(skiff.env.SKIFF_CONFIG_DIR);
    await Deno.writeTextFile(skiff.configFile, '[skiff_agent]\nfolder = "relative/dir"\n');
    for (const args of [["ledger", "add", "--task", "x"], ["ledger", "ls"], ["settings"]]) {
      const result = await skiff.run(args, { cwd: skiff.root });
      assertEquals(result.code, 2, `${args}: ${result.stderr}`);
      assertEquals(
        result.stderr,
        `skiff: ${skiff.configFile}:2:1: 'skiff_agent.folder' must be an absolute path or start with ~/\n`,
      );
    }
    assertEquals(await exists(join(skiff.root, "relative")), false);
  });
});

Deno.test("config: with HOME unset there is no default folder: one clear error (item 13)", async () => {
  await withSkiff(async (skiff) => {
    delete skiff.env.HOME;
    for (const args of [["ledger", "ls"], ["ledger", "add", "--task", "x"]]) {
      const result = await skiff.run(args, { cwd: skiff.root });
      assertEquals(result.code, 2, `${args}: ${result.stderr}`);
      assertMatch(
        result.stderr,
        /^skiff: HOME is not set, so the Skiff agent's folder '~\/skiff-agent' has no home to be in\./,
      );
    }
    assertEquals(await exists("/skiff-agent"), false);
    const report = await skiff.json<SettingsReport>(["settings"], { cwd: skiff.root });
    assertEquals(report.folder, {
      path: null,
      kind: null,
      usable: false,
      reason: "HOME is not set, so a folder under ~ has no place",
    });
    // An absolute folder needs no home.
    await skiff.ok(["settings", "set", "folder", join(skiff.root, "agent")], { cwd: skiff.root });
    await skiff.ok(["ledger", "add", "--task", "x"], { cwd: skiff.root });
    assertEquals(await exists(join(skiff.root, "agent", "ledger.db")), true);
  });
});
