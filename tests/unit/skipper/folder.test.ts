import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { tempDir, throwsSkiff } from "../../helpers/ledger.ts";
import { parseConfig } from "../../../lib/config/config.ts";
import {
  canonical,
  folderKind,
  MARKER_FILE,
  placeRefusal,
  setUpFolder,
} from "../../../lib/skipper/mod.ts";

Deno.test("placeRefusal: every place the spec refuses, and the places it allows", async () => {
  await using dir = await tempDir();
  const root = dir.path;
  const home = join(root, "home");
  const config = join(root, "config");
  const project = join(root, "code", "web");
  const repo = join(root, "repo");
  for (const d of [home, config, project, join(repo, ".git")]) {
    await Deno.mkdir(d, { recursive: true });
  }
  const cfg = parseConfig(`[projects.web]\nroot = "${project}"\n`, "p.toml");
  const env: Record<string, string> = { CODEX_HOME: join(root, "codex-home") };
  const refusal = (path: string) =>
    placeRefusal(path, cfg, { home, configDir: config, env: (n) => env[n] });
  const refused: [string, RegExp][] = [
    ["/", /^it is the root folder$/],
    [home, /^it is your home folder$/],
    [root, /^it holds your home folder/],
    [join(config, "agent"), /^it is in Skiff's config folder/],
    [config, /^it is in Skiff's config folder/],
    [project, /^it is project 'web'/],
    [join(project, "a", "b"), /^it is in project 'web'/],
    [join(root, "code"), /^it holds project 'web'/],
    [join(repo, "x"), /^it is in a Git repository \(.*repo\)$/],
    [repo, /^it is in a Git repository/],
    [join(home, ".claude"), /^it is Claude Code's own folder/],
    [join(home, ".claude", "skills"), /^it is Claude Code's own folder/],
    [join(home, ".codex"), /^it is Codex's own folder/],
    [join(root, "codex-home", "x"), /^it is Codex's own folder \(CODEX_HOME\)/],
    [join(home, ".gemini"), /^it is Gemini CLI's own folder/],
    [join(home, ".config", "opencode"), /^it is opencode's own folder/],
    [join(home, ".grok"), /^it is Grok's own folder/],
    [join(home, ".qwen"), /^it is Qwen Code's own folder/],
    [join(home, ".hermes", "profiles", "work"), /^it is Hermes's home, where its profiles live/],
  ];
  for (const [path, why] of refused) assertMatch(refusal(path) ?? "allowed", why, path);
  for (
    const path of [
      join(home, "skiff-agent"),
      join(home, ".skiff-agent"),
      join(home, ".config", "skiff-agent"),
      join(home, "agents", "deep", "mate"),
      join(root, "srv", "agent"),
    ]
  ) {
    assertEquals(refusal(path), undefined, path);
  }
});

Deno.test("placeRefusal: links are followed, so a link into a project is refused", async () => {
  await using dir = await tempDir();
  const project = join(dir.path, "web");
  await Deno.mkdir(project);
  await Deno.symlink(project, join(dir.path, "alias"));
  const cfg = parseConfig(`[projects.web]\nroot = "${project}"\n`, "p.toml");
  const options = { home: join(dir.path, "home"), configDir: join(dir.path, "cfg") };
  assertMatch(placeRefusal(join(dir.path, "alias", "agent"), cfg, options)!, /in project 'web'/);
  assertEquals(canonical(join(dir.path, "alias", "new", "x")), join(project, "new", "x"));
});

Deno.test("folderKind: new, empty, a Skiff folder, an older Skiff's folder, other, a file", async () => {
  await using dir = await tempDir();
  const at = (name: string) => join(dir.path, name);
  assertEquals(folderKind(at("missing")), "new");
  await Deno.mkdir(at("empty"));
  assertEquals(folderKind(at("empty")), "empty");
  await Deno.mkdir(at("skiff"));
  await Deno.writeTextFile(join(at("skiff"), MARKER_FILE), "");
  await Deno.writeTextFile(join(at("skiff"), "anything.txt"), "");
  assertEquals(folderKind(at("skiff")), "skiff");
  await Deno.mkdir(join(at("older"), "results"), { recursive: true });
  await Deno.writeTextFile(join(at("older"), "ledger.db"), "");
  await Deno.writeTextFile(join(at("older"), "ledger.md.bak"), "");
  assertEquals(folderKind(at("older")), "older");
  await Deno.writeTextFile(join(at("older"), "notes.txt"), "");
  assertEquals(folderKind(at("older")), "other", "a file of someone else's makes it other");
  await Deno.mkdir(at("results-only"));
  await Deno.mkdir(join(at("results-only"), "results"));
  assertEquals(folderKind(at("results-only")), "other", "no ledger: not an older Skiff's");
  await Deno.writeTextFile(at("file"), "");
  assertEquals(folderKind(at("file")), "file");
});

Deno.test("setUpFolder: writes only what is missing, marker first, and refuses other folders", async () => {
  await using dir = await tempDir();
  const folder = join(dir.path, "a", "agent");
  const skill = join(dir.path, "skills", "skiff-cli");
  const made = setUpFolder(folder, { name: "Mate", skillDir: skill });
  assertEquals(made[0], join(folder, MARKER_FILE), "the marker goes first");
  assertEquals(made.length, 9);
  assertMatch(
    await Deno.readTextFile(join(folder, "AGENTS.md")),
    /^# Mate\n\nYou are Mate, the Skiff agent/,
  );
  assertEquals(await Deno.readLink(join(folder, ".agents", "skills", "skiff-cli")), skill);
  assertEquals(await Deno.readLink(join(folder, ".claude")), ".agents");
  assertEquals(
    setUpFolder(folder, { name: "Other", skillDir: skill }),
    [],
    "a second setup writes nothing",
  );
  assertMatch(await Deno.readTextFile(join(folder, "AGENTS.md")), /^# Mate/);
  // A link the person pointed elsewhere stays theirs.
  await Deno.remove(join(folder, "GEMINI.md"));
  await Deno.symlink("MINE.md", join(folder, "GEMINI.md"));
  setUpFolder(folder, { name: "Mate", skillDir: skill });
  assertEquals(await Deno.readLink(join(folder, "GEMINI.md")), "MINE.md");

  const other = join(dir.path, "other");
  await Deno.mkdir(other);
  await Deno.writeTextFile(join(other, "x"), "");
  const error = throwsSkiff(() => setUpFolder(other, { name: "M", skillDir: skill }), "USAGE");
  assertMatch(error.message, /it holds files that are not the Skiff agent's/);
  assert((await Array.fromAsync(Deno.readDir(other))).length === 1, "nothing written");
});
