import { dirname, join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { withSkiff } from "../helpers/skiff.ts";

Deno.test("project add, ls and rm keep the user's comments and layout", async () => {
  await withSkiff(async (skiff) => {
    const web = join(skiff.root, "web");
    const api = join(skiff.root, "api");
    await Deno.mkdir(web);
    await Deno.mkdir(api);
    await Deno.mkdir(join(skiff.root, "config"));
    const original = [
      "# Skiff projects, by hand",
      "",
      "[daemon]",
      "scrollback = 500 # enough",
      "",
      "# the main site",
      "[projects.site]",
      `root = "${web}"`,
      "",
    ].join("\n");
    await Deno.writeTextFile(skiff.configFile, original);

    const added = await skiff.json<{
      project: { name: string; root: string; command: string[]; worktrees: string };
    }>([
      "project",
      "add",
      "api",
      api,
      "--command",
      "claude --model 'big one'",
    ]);
    assertEquals(added.project, {
      name: "api",
      root: api,
      command: ["claude", "--model", "big one"],
      worktrees: join(skiff.env.HOME, ".local", "share", "skiff", "worktrees", "api"),
    });
    let text = await Deno.readTextFile(skiff.configFile);
    assert(text.startsWith(original.trimEnd()), `old text kept as is:\n${text}`);
    assertMatch(text, /\[projects\.api\]\nroot = ".*api"\ncommand = "claude --model 'big one'"\n$/);

    const listed = await skiff.json<{ projects: { name: string }[] }>(["project", "ls"]);
    assertEquals(listed.projects.map((p) => p.name), ["site", "api"]);
    assertMatch(
      await skiff.ok(["project", "ls"]),
      /^NAME\s+ROOT\s+COMMAND\nsite\s+.*web\s+-\napi\s+.*api\s+claude --model big one\n$/,
    );

    const dup = await skiff.run(["project", "add", "api", api]);
    assertEquals(dup.code, 5);
    assertEquals(dup.stderr, "skiff: A project named 'api' exists already\n");

    await skiff.ok(["project", "rm", "site"]);
    text = await Deno.readTextFile(skiff.configFile);
    assert(!text.includes("the main site") && !text.includes("[projects.site]"), text);
    assert(
      text.includes("# Skiff projects, by hand") && text.includes("scrollback = 500 # enough"),
      text,
    );
    const missing = await skiff.run(["project", "rm", "site"]);
    assertEquals(missing.code, 3);
    const noDir = await skiff.run(["project", "add", "x", join(skiff.root, "nope")]);
    assertEquals(noDir.code, 2);
    const badName = await skiff.run(["project", "add", "a.b", api]);
    assertEquals(badName.code, 2);
  });
});

Deno.test("a TOML error names file:line:col, exits 2 and leaves the file untouched", async () => {
  await withSkiff(async (skiff) => {
    await Deno.mkdir(join(skiff.root, "config"));
    const broken = '# mine\n[projects.web]\nroot = "/tmp"\ncommand = "unterminated\n';
    await Deno.writeTextFile(skiff.configFile, broken);
    const before = await Deno.stat(skiff.configFile);
    for (const args of [["project", "ls"], ["project", "add", "x", skiff.root]]) {
      const result = await skiff.run(args);
      assertEquals(result.code, 2, result.stderr);
      assertMatch(result.stderr, new RegExp(`^skiff: ${skiff.configFile}:4:\\d+: .+\\n$`));
      assertEquals(result.stdout, "");
    }
    assertEquals(await Deno.readTextFile(skiff.configFile), broken);
    assertEquals((await Deno.stat(skiff.configFile)).mtime, before.mtime);
    const json = await skiff.run(["project", "ls", "--json"]);
    const error = JSON.parse(json.stderr).error;
    assertEquals([error.code, error.exit], ["usage", 2]);
    // A wrong type names the key.
    await Deno.writeTextFile(skiff.configFile, "[projects.web]\nroot = 5\n");
    const typed = await skiff.run(["project", "ls"]);
    assertEquals(typed.code, 2);
    assertMatch(typed.stderr, /'projects\.web\.root' must be a folder path/);
  });
});

Deno.test("a project added while skiffd runs is usable at once", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["daemon", "start"]);
    const dir = join(skiff.root, "late");
    await Deno.mkdir(dir);
    await skiff.ok(["project", "add", "late", dir]);
    const pane = await skiff.json<{ pane: { cwd: string; project: string } }>([
      "new",
      "--project",
      "late",
      "--",
      "sh",
    ]);
    assertEquals([pane.pane.project, pane.pane.cwd], ["late", dir]);
  });
});

Deno.test("usage errors: one line, exit 2, JSON on stderr with --json", async () => {
  await withSkiff(async (skiff) => {
    const unknown = await skiff.run(["ls", "--bogus"]);
    assertEquals(unknown.code, 2);
    assertEquals(unknown.stderr, "skiff: Unknown option '--bogus'. See 'skiff ls --help'.\n");
    const command = await skiff.run(["frobnicate"]);
    assertEquals([command.code, command.stderr], [
      2,
      "skiff: Unknown command 'frobnicate'. See 'skiff --help'.\n",
    ]);
    const missing = await skiff.run(["capture"]);
    assertEquals(missing.stderr, "skiff: Missing argument PANE. See 'skiff capture --help'.\n");
    const size = await skiff.run(["new", "--size", "wide", "--json"]);
    assertEquals(size.code, 2);
    assertEquals(size.stdout, "");
    const err = JSON.parse(size.stderr);
    assertEquals(err.schema_version, 1);
    assertEquals(err.error.code, "usage");
    assertMatch(err.error.message, /Bad size 'wide'/);
    const number = await skiff.run(["capture", "x", "--scrollback", "lots"]);
    assertEquals(
      number.stderr,
      "skiff: Option '--scrollback' needs a number, not 'lots'. See 'skiff capture --help'.\n",
    );
    const key = await skiff.run(["keys", "x", "C-nope"]);
    assertEquals(key.code, 2);
  });
});

Deno.test("--help works everywhere and lists options and exit codes", async () => {
  await withSkiff(async (skiff) => {
    const root = await skiff.ok(["--help"]);
    for (
      const name of [
        "new",
        "ls",
        "attach",
        "capture",
        "keys",
        "rename",
        "kill",
        "mark",
        "events",
        "project",
        "daemon",
      ]
    ) {
      assertMatch(root, new RegExp(`^  ${name}\\s`, "m"));
      const help = await skiff.ok([name, "--help"]);
      assertMatch(help, new RegExp(`^Usage: skiff ${name}`));
      if (!["project", "daemon"].includes(name)) assertMatch(help, /Exit codes:\n {2}0 +Success/);
    }
    assertMatch(
      await skiff.ok(["daemon", "stop", "--help"]),
      /^Usage: skiff daemon stop \[options\]/,
    );
    assertMatch(await skiff.ok(["help", "new"]), /--project P/);
    assertEquals((await skiff.run(["daemon"])).code, 2);
    assertMatch(await skiff.ok(["--version"]), /^skiff \d+\.\d+\.\d+\n$/);
  });
});

Deno.test("skiffd does not start on a broken config: the starting command says file:line:col, exit 2", async () => {
  await withSkiff(async (skiff) => {
    await Deno.mkdir(dirname(skiff.configFile), { recursive: true });
    await Deno.writeTextFile(skiff.configFile, '[projects.demo]\nroot = "/tmp"\nroot = "/x"\n');
    const started = await skiff.run(["new", "--project", "demo"]);
    assertEquals(started.code, 2, started.stderr);
    assertMatch(started.stderr, /projects\.toml:3:\d+: /);
    assertEquals(started.stderr.trim().split("\n").length, 1, "one line");
    assertEquals((await skiff.run(["daemon", "status"])).code, 4, "nothing was started");
    // Run in the foreground, skiffd refuses too, and says why.
    const foreground = await skiff.run(["daemon", "run"]);
    assertEquals(foreground.code, 2, foreground.stderr);
    assertMatch(foreground.stderr, /projects\.toml:3:\d+: /);
  });
});

Deno.test("daemon restart checks the config before it stops the running skiffd", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "keep", "--", "bash", "--norc"]);
    const before = await skiff.json<{ pid: number }>(["daemon", "status"]);
    await Deno.mkdir(dirname(skiff.configFile), { recursive: true });
    await Deno.writeTextFile(skiff.configFile, "[daemon\n");
    const restart = await skiff.run(["daemon", "restart"]);
    assertEquals(restart.code, 2, restart.stderr);
    assertMatch(restart.stderr, /projects\.toml:1:\d+: /);
    const after = await skiff.json<{ pid: number }>(["daemon", "status"]);
    assertEquals(after.pid, before.pid, "the running skiffd was left alone");
  });
});
