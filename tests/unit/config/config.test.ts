import { assert, assertEquals, assertMatch, assertThrows } from "../../helpers/assert.ts";
import { formatTomlError, loadConfig, parseConfig } from "../../../lib/config/config.ts";
import { ConfigSource } from "../../../lib/config/config_source.ts";
import { DEFAULT_SCROLLBACK, PROJECT_NAME, splitCommand } from "../../../lib/config/tables.ts";
import { homeDir } from "../../../lib/config/paths.ts";
import { SkiffError } from "../../../lib/errors.ts";
import { join } from "node:path";
import { parse, TomlError } from "smol-toml";

const FILE = "/cfg/projects.toml";

function usage(fn: () => unknown): string {
  const error = assertThrows(fn);
  assert(error instanceof SkiffError, `expected a SkiffError, got ${error}`);
  assertEquals(error.exit, "USAGE");
  return error.message;
}

Deno.test("parseConfig: defaults for an empty file", () => {
  const config = parseConfig("", FILE);
  assertEquals(config, {
    file: FILE,
    exists: true,
    projects: [],
    daemon: {
      scrollback: DEFAULT_SCROLLBACK,
      shell: undefined,
      turnStartSeconds: 10,
      resume: true,
      screenSleepSeconds: 30,
    },
    skiffAgent: {
      enabled: false,
      name: "Skipper",
      agent: "claude",
      folder: join(homeDir(), "skiff-agent"),
      folderSetting: "~/skiff-agent",
      continueOnRestore: true,
      land: "ask",
    },
    attach: { detach: { name: "C-\\", ctrl: "\\" }, history: { name: "C-]", ctrl: "]" } },
    mcp: { allow: null },
    document: {},
    places: config.places,
  });
  assertEquals(DEFAULT_SCROLLBACK, 2000);
  assertEquals(parseConfig("", FILE, false).exists, false);
});

Deno.test("parseConfig: projects in file order, roots resolved, commands split", () => {
  const config = parseConfig(
    `
[projects.web]
root = "/srv/web/../site/"
command = "npm run 'dev server'"

[projects.api_2]
root = "/srv/api"
command = ["go", "run", "./cmd/api"]

[projects.Z-last]
root = "/z"
`,
    FILE,
  );
  assertEquals(config.projects, [
    { name: "web", root: "/srv/site", command: ["npm", "run", "dev server"] },
    { name: "api_2", root: "/srv/api", command: ["go", "run", "./cmd/api"] },
    { name: "Z-last", root: "/z" },
  ]);
  assertEquals(
    (config.document.projects as Record<string, unknown>)["Z-last"],
    { root: "/z" },
  );
});

Deno.test("parseConfig: a root may start with ~", () => {
  const config = parseConfig(`[projects.h]\nroot = "~/code"\n`, FILE);
  assertEquals(config.projects[0].root, join(homeDir(), "code"));
});

Deno.test("parseConfig: project validation names the file and the key", () => {
  const cases: [string, string][] = [
    ["projects = 1", `${FILE}:1:1: 'projects' must be a table`],
    ["[projects]\nweb = 1", `${FILE}:2:1: 'projects.web' must be a table`],
    ["[projects.web]\ncommand = 'x'", `${FILE}: 'projects.web.root' must be a folder path`],
    ['[projects.web]\nroot = ""', `${FILE}:2:1: 'projects.web.root' must be a folder path`],
    ["[projects.web]\nroot = 5", `${FILE}:2:1: 'projects.web.root' must be a folder path`],
    [
      '[projects.web]\nroot = "rel/dir"',
      `${FILE}:2:1: 'projects.web.root' must be an absolute path`,
    ],
    [
      '[projects.web]\nroot = "/a"\ncommand = 3',
      `${FILE}:3:1: 'projects.web.command' must be a string or a list of strings`,
    ],
    [
      '[projects.web]\nroot = "/a"\ncommand = ["a", 1]',
      `${FILE}:3:1: 'projects.web.command' must be a string or a list of strings`,
    ],
    [
      '[projects."bad name"]\nroot = "/a"',
      `${FILE}:1:11: project name 'bad name' may hold only letters, digits, '_' and '-' ` +
      "(1 to 64, starting with a letter or digit)",
    ],
    [
      '[projects."-dash"]\nroot = "/a"',
      `${FILE}:1:11: project name '-dash' may hold only letters, digits, '_' and '-' ` +
      "(1 to 64, starting with a letter or digit)",
    ],
  ];
  for (const [text, message] of cases) assertEquals(usage(() => parseConfig(text, FILE)), message);
});

Deno.test("PROJECT_NAME", () => {
  for (const ok of ["a", "web", "A_1-b", "9lives", "x".repeat(64)]) {
    assert(PROJECT_NAME.test(ok), ok);
  }
  for (const bad of ["", "-a", "_a", "a b", "a.b", "é", "x".repeat(65)]) {
    assert(!PROJECT_NAME.test(bad), bad);
  }
});

Deno.test("parseConfig: daemon settings and their bounds", () => {
  assertEquals(parseConfig("[daemon]\nscrollback = 0", FILE).daemon.scrollback, 0);
  assertEquals(parseConfig("[daemon]\nscrollback = 1000000", FILE).daemon.scrollback, 1_000_000);
  assertEquals(parseConfig('[daemon]\nshell = "/bin/zsh"', FILE).daemon.shell, "/bin/zsh");
  for (const bad of ["-1", "1.5", '"10"', "1000001", "true"]) {
    assertEquals(
      usage(() => parseConfig(`[daemon]\nscrollback = ${bad}`, FILE)),
      `${FILE}:2:1: 'daemon.scrollback' must be a whole number of lines from 0 to 1000000`,
    );
  }
  assertEquals(
    usage(() => parseConfig("[daemon]\nshell = 1", FILE)),
    `${FILE}:2:1: 'daemon.shell' must be a string`,
  );
  assertEquals(
    usage(() => parseConfig("daemon = []", FILE)),
    `${FILE}:1:1: 'daemon' must be a table`,
  );
  assertEquals(
    parseConfig("[daemon]\nturn_start_seconds = 0.5", FILE).daemon.turnStartSeconds,
    0.5,
  );
  assertEquals(
    parseConfig("[daemon]\nturn_start_seconds = 3600", FILE).daemon.turnStartSeconds,
    3600,
  );
  for (const bad of ["0.4", "0", "-1", "3601", "nan", '"10"']) {
    assertEquals(
      usage(() => parseConfig(`[daemon]\nturn_start_seconds = ${bad}`, FILE)),
      `${FILE}:2:1: 'daemon.turn_start_seconds' must be a number of seconds from 0.5 to 3600`,
    );
  }
});

Deno.test("parseConfig: skiff_agent settings", () => {
  const config = parseConfig(
    '[skiff_agent]\nenabled = true\nname = "Mate"\nagent = "codex"\nfolder = "/agents/mate/"\ncontinue = false',
    FILE,
  );
  assertEquals(config.skiffAgent, {
    enabled: true,
    name: "Mate",
    agent: "codex",
    folder: "/agents/mate",
    folderSetting: "/agents/mate/",
    continueOnRestore: false,
    land: "ask",
  });
  assertEquals(parseConfig('[skiff_agent]\nland = "auto"', FILE).skiffAgent.land, "auto");
  assertEquals(
    usage(() => parseConfig('[skiff_agent]\nland = "always"', FILE)),
    `${FILE}:2:1: 'skiff_agent.land' must be "ask" or "auto"`,
  );
  assertEquals(
    usage(() => parseConfig("[skiff_agent]\nland = true", FILE)),
    `${FILE}:2:1: 'skiff_agent.land' must be "ask" or "auto"`,
  );
  assertEquals(
    parseConfig('[skiff_agent]\nfolder = "~/a"', FILE).skiffAgent.folder,
    join(homeDir(), "a"),
  );
  assertEquals(
    usage(() => parseConfig('[skiff_agent]\nname = ""', FILE)),
    `${FILE}:2:1: 'skiff_agent.name' must be a string`,
  );
  assertEquals(
    usage(() => parseConfig("[skiff_agent]\nagent = 1", FILE)),
    `${FILE}:2:1: 'skiff_agent.agent' must be a string`,
  );
  assertEquals(
    usage(() => parseConfig('[skiff_agent]\ncontinue = "yes"', FILE)),
    `${FILE}:2:1: 'skiff_agent.continue' must be true or false`,
  );
  assertEquals(
    usage(() => parseConfig('[skiff_agent]\nenabled = "yes"', FILE)),
    `${FILE}:2:1: 'skiff_agent.enabled' must be true or false`,
  );
});

Deno.test("parseConfig: TOML errors read file:line:col: message", () => {
  const message = usage(() => parseConfig('[daemon]\nscrollback = 10\nshell = "/bin/sh\n', FILE));
  assertMatch(message, /^\/cfg\/projects\.toml:3:\d+: \S/);
  assert(!message.includes("Invalid TOML document"), message);
  assert(!message.includes("\n"), "one line");
  const second = usage(() => parseConfig("a = 1\n\n\n[t\n", FILE));
  assertMatch(second, /^\/cfg\/projects\.toml:4:\d+: /);
});

Deno.test("formatTomlError: uses the error's line and column and its first line", () => {
  let error: TomlError | undefined;
  try {
    parse("x = 1\ny = @\n");
  } catch (e) {
    error = e as TomlError;
  }
  assert(error instanceof TomlError, "smol-toml throws a TomlError");
  const text = formatTomlError("f.toml", error);
  assertEquals(text.startsWith(`f.toml:${error.line}:${error.column}: `), true, text);
  assertEquals(error.line, 2);
  assert(!text.includes("\n"), "one line");
});

Deno.test("splitCommand: words and quotes", () => {
  assertEquals(splitCommand(""), []);
  assertEquals(splitCommand("   "), []);
  assertEquals(splitCommand("npm run dev"), ["npm", "run", "dev"]);
  assertEquals(splitCommand("  a\t b  "), ["a", "b"]);
  assertEquals(splitCommand(`"a b" 'c d' e`), ["a b", "c d", "e"]);
  assertEquals(splitCommand(`echo "say \\"hi\\"" 'it\\s'`), ["echo", 'say "hi"', "it\\s"]);
  assertEquals(splitCommand(`x "" ''`), ["x", "", ""]);
  assertEquals(splitCommand(`sh -c 'echo $HOME; ls'`), ["sh", "-c", "echo $HOME; ls"]);
});

Deno.test("loadConfig: missing, present and unreadable files", () => {
  const dir = Deno.makeTempDirSync({ prefix: "skiff-config-" });
  try {
    const file = join(dir, "projects.toml");
    const missing = loadConfig(file);
    assertEquals([missing.exists, missing.file, missing.projects], [false, file, []]);
    Deno.writeTextFileSync(file, '[projects.a]\nroot = "/a"\n');
    const present = loadConfig(file);
    assertEquals([present.exists, present.projects.map((p) => p.name)], [true, ["a"]]);
    // A folder where the file should be cannot be read.
    const folder = join(dir, "folder.toml");
    Deno.mkdirSync(folder);
    const error = assertThrows(() => loadConfig(folder), /^Cannot read /);
    assert(error instanceof SkiffError);
    assertEquals(error.exit, "DATA");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("ConfigSource: reloads on change and keeps the last good config on a broken edit", () => {
  const dir = Deno.makeTempDirSync({ prefix: "skiff-config-" });
  try {
    const file = join(dir, "projects.toml");
    const errors: string[] = [];
    const source = new ConfigSource(file, (m) => errors.push(m));
    assertEquals(source.get().exists, false);
    assertEquals(source.get().projects, []);

    Deno.writeTextFileSync(file, '[projects.a]\nroot = "/a"\n');
    assertEquals(source.get().projects.map((p) => p.name), ["a"]);
    const good = source.get();
    assert(source.get() === good, "no reload while the file is unchanged");

    Deno.writeTextFileSync(file, '[projects.a]\nroot = "/a"\n\n[projects.b\n');
    assertEquals(source.get().projects.map((p) => p.name), ["a"]);
    assertEquals(errors.length, 1);
    assertMatch(errors[0], new RegExp(`^${file.replace(/[.]/g, "\\.")}:4:\\d+: `));
    // The broken edit is reported once, not on every read.
    source.get();
    assertEquals(errors.length, 1);

    // A config that parses but fails validation also keeps the old one.
    Deno.writeTextFileSync(file, '[projects.a]\nroot = "relative/path"\n');
    assertEquals(source.get().projects, [{ name: "a", root: "/a" }]);
    assertEquals(errors.length, 2);
    assertMatch(errors[1], /must be an absolute path$/);

    Deno.writeTextFileSync(file, '[projects.a]\nroot = "/a"\n[projects.bb]\nroot = "/b"\n');
    assertEquals(source.get().projects.map((p) => p.name), ["a", "bb"]);
    assertEquals(errors.length, 2);

    Deno.removeSync(file);
    assertEquals(source.get().exists, false);
    assertEquals(source.get().projects, []);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("ConfigSource: reload throws and keeps the old config", () => {
  const dir = Deno.makeTempDirSync({ prefix: "skiff-config-" });
  try {
    const file = join(dir, "projects.toml");
    Deno.writeTextFileSync(file, '[projects.a]\nroot = "/a"\n');
    const source = new ConfigSource(file, () => {});
    Deno.writeTextFileSync(file, "broken = \n");
    assertThrows(() => source.reload(), /projects\.toml:1:\d+: /);
    assertEquals(source.get().projects.map((p) => p.name), ["a"]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("ConfigSource: a file broken from the start throws: a daemon must not run on it", () => {
  const dir = Deno.makeTempDirSync({ prefix: "skiff-config-" });
  try {
    const file = join(dir, "projects.toml");
    Deno.writeTextFileSync(file, "[daemon]\nscrollback = -5\n");
    const errors: string[] = [];
    assertThrows(
      () => new ConfigSource(file, (m) => errors.push(m)),
      /'daemon\.scrollback' must be/,
    );
    assertEquals(errors, [], "a refusal to start is not a reported edit");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("ConfigSource: recent() looks at the file at most every RECHECK_MS, get() at once", () => {
  const dir = Deno.makeTempDirSync({ prefix: "skiff-config-" });
  try {
    const file = join(dir, "projects.toml");
    Deno.writeTextFileSync(file, '[projects.a]\nroot = "/a"\n');
    const source = new ConfigSource(file, () => {});
    assertEquals(source.get().projects.map((p) => p.name), ["a"]);
    Deno.writeTextFileSync(file, '[projects.a]\nroot = "/a"\n[projects.bb]\nroot = "/b"\n');
    // Within RECHECK_MS of the last look, recent() keeps what it had.
    assertEquals(source.recent().projects.map((p) => p.name), ["a"]);
    assertEquals(source.get().projects.map((p) => p.name), ["a", "bb"]);
    assertEquals(source.recent().projects.map((p) => p.name), ["a", "bb"]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("parseConfig: the Skiff agent's folder must be absolute or start with ~/ (issue 8 item 12)", () => {
  for (const folder of ["relative/dir", "./here", "skiff-agent", "~other/x", "../up"]) {
    assertEquals(
      usage(() => parseConfig(`[skiff_agent]\nfolder = "${folder}"`, FILE)),
      `${FILE}:2:1: 'skiff_agent.folder' must be an absolute path or start with ~/`,
      folder,
    );
  }
  assertEquals(parseConfig('[skiff_agent]\nfolder = "~"', FILE).skiffAgent.folder, homeDir());
});

/** Reads the Skiff agent's folder in a child process with this environment. */
async function folderIn(env: Record<string, string>, toml: string): Promise<string> {
  const mod = new URL("../../../lib/config/config.ts", import.meta.url).href;
  const code = `import { agentFolder, parseConfig } from "${mod}";
    const config = parseConfig(${JSON.stringify(toml)}, "p.toml");
    try { console.log(agentFolder(config)); } catch (e) { console.log("error: " + e.message); }`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert(out.success);
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test("agentFolder: with HOME unset there is no default folder, never /skiff-agent (item 13)", async () => {
  const path = { PATH: Deno.env.get("PATH") ?? "" };
  assertEquals(await folderIn({ ...path, HOME: "/home/ann" }, ""), "/home/ann/skiff-agent");
  const none = await folderIn(path, "");
  assertMatch(
    none,
    /^error: HOME is not set, so the Skiff agent's folder '~\/skiff-agent' has no home/,
  );
  assertMatch(await folderIn(path, '[skiff_agent]\nfolder = "~/x"'), /^error: HOME is not set/);
  assertEquals(await folderIn(path, '[skiff_agent]\nfolder = "/srv/agent"'), "/srv/agent");
});

Deno.test("parseConfig: [attach] keys are read, checked, and the history key can be off", () => {
  const config = parseConfig(`[attach]\ndetach_key = "C-b"\nhistory_key = "F12"\n`, FILE);
  assertEquals(config.attach, {
    detach: { name: "C-b", ctrl: "b" },
    history: { name: "F12", fn: 12 },
  });
  assertEquals(parseConfig(`[attach]\nhistory_key = "none"\n`, FILE).attach.history, null);
  assertEquals(
    usage(() => parseConfig(`[attach]\ndetach_key = "C-m"\n`, FILE)),
    `${FILE}:2:1: 'attach.detach_key' is 'C-m', which is Enter: programs need it`,
  );
  assertMatch(
    usage(() => parseConfig(`[attach]\ndetach_key = "none"\n`, FILE)),
    /:2:1: 'attach.detach_key' is 'none', not a key Skiff can keep; use C- with a letter/,
  );
  assertEquals(
    usage(() => parseConfig(`[attach]\nhistory_key = "C-\\\\"\n`, FILE)),
    `${FILE}:2:1: 'attach.history_key' is the detach key 'C-\\'; pick another, or "none"`,
  );
  assertMatch(
    usage(() => parseConfig(`[attach]\ndetach_key = 3\n`, FILE)),
    /:2:1: 'attach.detach_key' must be a key, such as "C-\]"/,
  );
  assertMatch(
    usage(() => parseConfig(`[attach]\ndetach = "C-b"\n`, FILE)),
    /:2:1: unknown key 'detach' in \[attach\]; did you mean 'detach_key'\?/,
  );
});

Deno.test("parseConfig: a project's worktrees folder, relative to its root, ~ or absolute", () => {
  const config = parseConfig(
    [
      '[projects.api]\nroot = "/code/api"\nworktrees = "../api-worktrees"',
      '[projects.web]\nroot = "/code/web"\nworktrees = "~/wt/web"',
      '[projects.cli]\nroot = "/code/cli"',
    ].join("\n"),
    FILE,
  );
  assertEquals(config.projects.map((p) => p.worktrees), [
    "/code/api-worktrees",
    join(homeDir(), "wt", "web"),
    undefined,
  ]);
  const error = assertThrows(() =>
    parseConfig('[projects.api]\nroot = "/code/api"\nworktrees = 3', FILE)
  );
  assertMatch(error.message, /'projects\.api\.worktrees' must be a folder path/);
});

Deno.test("parseConfig: a project's check is a shell command; anything else names its place", () => {
  const config = parseConfig(
    '[projects.api]\nroot = "/code/api"\ncheck = "deno task test && deno lint"\n[projects.web]\nroot = "/w"',
    FILE,
  );
  assertEquals(config.projects.map((p) => p.check), ["deno task test && deno lint", undefined]);
  for (const bad of ['check = ""', 'check = "   "', "check = 3", 'check = ["make", "test"]']) {
    assertEquals(
      usage(() => parseConfig(`[projects.api]\nroot = "/code/api"\n${bad}`, FILE)),
      `${FILE}:3:1: 'projects.api.check' must be a shell command, such as "deno task test"`,
    );
  }
  assertMatch(
    usage(() => parseConfig('[projects.api]\nroot = "/code/api"\nchecks = "x"', FILE)),
    /:3:1: unknown key 'checks' in \[projects\.api\]; did you mean 'check'\?$/,
  );
});
