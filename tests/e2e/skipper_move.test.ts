/**
 * End-to-end tests of `skiff skipper --move-to PATH [--dry-run]`: a new or
 * empty folder gets a checked copy, a Skiff folder is switched to as it is,
 * any other folder and every refused place are refused with one line, and a
 * failure before projects.toml is written changes nothing.
 */

import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { exists, files, list, row, uids } from "../helpers/ledger.ts";
import { BASH, type SkiffEnv, withSkiff } from "../helpers/skiff.ts";
import { allPanes, openJson, skipperDir, useFakeSkipper } from "../helpers/skipper.ts";
import type { MoveOutcome } from "../../lib/skipper/mod.ts";

/** Every row of every table of the SQLite file at `path`, as text. */
function ledgerRows(path: string): string {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .all() as { name: string }[];
    return JSON.stringify(
      tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}"`).all()]),
    );
  } finally {
    db.close();
  }
}

/**
 * Every file under `dir` with its bytes (links as `-> target`, the ledger as its rows), for
 * before/after comparisons.
 */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (at: string, rel: string) => {
    for await (const entry of Deno.readDir(at)) {
      const path = join(at, entry.name);
      const key = rel ? `${rel}/${entry.name}` : entry.name;
      if (/^ledger\.db-(wal|shm)$/.test(entry.name)) continue;
      // The ledger by its rows: a reader closing last moves the WAL into the file, which
      // changes its bytes and nothing in it.
      if (entry.name === "ledger.db") out[key] = ledgerRows(path);
      else if (entry.isSymlink) out[key] = `-> ${await Deno.readLink(path)}`;
      else if (entry.isDirectory) await walk(path, key);
      else out[key] = await Deno.readTextFile(path);
    }
  };
  await walk(dir, "");
  return out;
}

/** A Skiff agent with a running session, a plan and a task in its ledger, a result file and an edit. */
async function busyAgent(skiff: SkiffEnv): Promise<{ uids: string[] }> {
  await useFakeSkipper(skiff);
  await openJson(skiff);
  const plan = await row(skiff, ["add", "--task", "Release 2.0"]);
  await skiff.ok(["new", "--name", "rev", "--", ...BASH]);
  const task = await row(skiff, ["add", "--pane", "rev", "--task", "Notes", "--parent", plan.uid]);
  const dir = skipperDir(skiff);
  await Deno.writeTextFile(join(dir, "AGENTS.md"), "# Skipper, my way\n");
  await Deno.mkdir(join(dir, "results", "done"), { recursive: true });
  await Deno.writeTextFile(join(dir, "results", "done", "r.md"), "result\n");
  return { uids: [plan.uid, `${plan.uid}/${task.uid}`] };
}

async function names(skiff: SkiffEnv): Promise<string[]> {
  return (await allPanes(skiff)).map((p) => p.name);
}

async function move(skiff: SkiffEnv, path: string, ...more: string[]): Promise<MoveOutcome> {
  return await skiff.json<MoveOutcome>(["skipper", "--move-to", path, ...more]);
}

for (const kind of ["new", "empty"] as const) {
  Deno.test(`move-to ${kind === "new" ? "a new" : "an empty"} folder: dry run changes nothing; then a checked copy, the session ended, MOVED.md`, async () => {
    await withSkiff(async (skiff) => {
      const before = await busyAgent(skiff);
      const old = skipperDir(skiff);
      const target = join(skiff.env.HOME, "agents", "mate");
      if (kind === "empty") await Deno.mkdir(target, { recursive: true });
      const oldFiles = await snapshot(old);
      const config = await Deno.readTextFile(skiff.configFile);

      const dry = await move(skiff, "~/agents/mate", "--dry-run");
      assertEquals([dry.action, dry.dryRun, dry.ended, dry.to], ["copy", true, ["p1"], target]);
      const text = await skiff.ok(["skipper", "--move-to", "~/agents/mate", "--dry-run"]);
      assertMatch(
        text,
        /^Would end the Skiff agent's session \(p1\)\.\nWould copy .* to .*agents\/mate, check the copy, and switch to it\.\n/,
      );
      assertMatch(text, /Nothing was changed \(--dry-run\)\.\n$/);
      assertEquals(await Deno.readTextFile(skiff.configFile), config);
      assertEquals(await snapshot(old), oldFiles);
      assertEquals(await exists(target), kind === "empty");
      assertEquals(await names(skiff), ["Skipper", "rev"], "the session still runs");

      const moved = await move(skiff, "~/agents/mate");
      assertEquals([moved.action, moved.ended, moved.copied?.ledgerRows], ["copy", ["p1"], 2]);
      assertEquals(await names(skiff), ["rev"], "the session was ended first, and only it");
      assertMatch(await Deno.readTextFile(skiff.configFile), /^folder = "~\/agents\/mate"$/m);
      // The copy holds everything, and the ledger commands now read it.
      const copied = await snapshot(target);
      for (const [path, body] of Object.entries(oldFiles)) {
        // The ledger is copied through SQLite: the rows below prove it, not the bytes.
        if (path !== "ledger.db") assert(copied[path] === body, `${path} is copied as it was`);
      }
      assertEquals(uids((await list(skiff)).rows), before.uids);
      // The old folder keeps every file and gets MOVED.md.
      const after = await snapshot(old);
      assertEquals({ ...after, "MOVED.md": undefined }, { ...oldFiles, "MOVED.md": undefined });
      assertMatch(after["MOVED.md"], /the Skiff agent moved to .*agents\/mate/);
      // The next open starts a new conversation in the new folder.
      const opened = await openJson(skiff);
      assertEquals([opened.how, opened.folder, opened.start.typed], ["created", target, "start"]);
    });
  });
}

Deno.test("move-to a Skiff folder switches to it as it is: no copy, no merge", async () => {
  await withSkiff(async (skiff) => {
    await busyAgent(skiff);
    const other = join(skiff.env.HOME, ".skiff-agent");
    // Another Skiff folder with a ledger of its own.
    skiff.env.SKIFF_LEDGER = join(other, "ledger.db");
    const theirs = await row(skiff, ["add", "--task", "Their plan"]);
    delete skiff.env.SKIFF_LEDGER;
    await Deno.writeTextFile(join(other, ".skiff-agent"), "marker\n");
    const otherFiles = await snapshot(other);
    const moved = await move(skiff, other);
    assertEquals([moved.action, moved.copied, moved.setting], ["switch", null, other]);
    assertEquals(await snapshot(other), otherFiles, "switched to as it is");
    assertEquals(uids((await list(skiff)).rows), [theirs.uid], "no merge");
    assert((await files(skipperDir(skiff))).includes("MOVED.md"));
  });
});

Deno.test("move-to with no current folder yet sets up a new one with a new ledger", async () => {
  await withSkiff(async (skiff) => {
    await useFakeSkipper(skiff);
    const target = join(skiff.root, "srv", "agent");
    const moved = await move(skiff, target);
    assertEquals([moved.action, moved.notesOld, moved.ended], ["new", false, []]);
    assert((await files(target)).includes(".skiff-agent"));
    assert(!(await exists(skipperDir(skiff))), "no old folder was made");
    assertEquals(
      await skiff.ok(["skipper", "--move-to", target]),
      `The Skiff agent's folder is ${target} already.\n`,
    );
  });
});

Deno.test("move-to refuses a folder with other files, and every place the spec refuses", async () => {
  await withSkiff(async (skiff) => {
    await busyAgent(skiff);
    const home = skiff.env.HOME;
    const project = join(skiff.root, "code", "web");
    await Deno.mkdir(project, { recursive: true });
    await skiff.ok(["project", "add", "web", project]);
    const repo = join(skiff.root, "repo");
    await Deno.mkdir(join(repo, ".git"), { recursive: true });
    const full = join(skiff.root, "full");
    await Deno.mkdir(full);
    await Deno.writeTextFile(join(full, "notes.txt"), "mine\n");
    const cases: [string, RegExp][] = [
      ["/", /it is the root folder/],
      [home, /it is your home folder/],
      ["~", /it is your home folder/],
      [skiff.root, /it holds your home folder/],
      [join(skiff.env.SKIFF_CONFIG_DIR, "agent"), /it is in Skiff's config folder/],
      [project, /it is project 'web'/],
      [join(project, "agent"), /it is in project 'web'/],
      [join(skiff.root, "code"), /it holds project 'web'/],
      [join(repo, "sub", "agent"), /it is in a Git repository \(.*repo\)/],
      ["~/.claude", /it is Claude Code's own folder/],
      ["~/.codex", /it is Codex's own folder/],
      ["~/.gemini/agent", /it is Gemini CLI's own folder/],
      ["~/.config/opencode", /it is opencode's own folder/],
      ["~/.grok", /it is Grok's own folder/],
      ["~/.qwen", /it is Qwen Code's own folder/],
      ["~/.hermes/profiles/work", /it is Hermes's home, where its profiles live/],
      [full, /it holds files that are not the Skiff agent's/],
      [join(full, "notes.txt"), /it is a file, not a folder/],
      [join(skipperDir(skiff), "inner"), /it is inside the current folder/],
      ["relative/../x", /.*/],
    ];
    const config = await Deno.readTextFile(skiff.configFile);
    const old = await snapshot(skipperDir(skiff));
    for (const [path, why] of cases.slice(0, -1)) {
      for (const dry of [[], ["--dry-run"]]) {
        const result = await skiff.run(["skipper", "--move-to", path, ...dry]);
        assertEquals(result.code, 2, `${path}: ${result.stderr}`);
        assertEquals(result.stdout, "");
        assertMatch(result.stderr, /^skiff: Cannot move the Skiff agent to [^\n]+\n$/, path);
        assertMatch(result.stderr, why, path);
      }
    }
    assertEquals(await Deno.readTextFile(skiff.configFile), config, "the config is untouched");
    assertEquals(await snapshot(skipperDir(skiff)), old, "the folder is untouched");
    assertEquals(await names(skiff), ["Skipper", "rev"], "the session still runs");
    // A dot-folder is a usual folder; a relative path is taken from the current folder.
    assertEquals((await move(skiff, "~/.skiff-agent", "--dry-run")).action, "copy");
    const rel = await skiff.json<MoveOutcome>(
      ["skipper", "--move-to", "spare/agent", "--dry-run"],
      { cwd: skiff.root },
    );
    assertEquals(rel.to, join(skiff.root, "spare", "agent"));
  });
});

Deno.test("a move that fails before projects.toml is written leaves config and folders as they were", async () => {
  await withSkiff(async (skiff) => {
    await busyAgent(skiff);
    const old = skipperDir(skiff);
    const config = await Deno.readTextFile(skiff.configFile);
    const oldFiles = await snapshot(old);
    for (const kind of ["new", "empty"]) {
      const target = join(skiff.root, `target-${kind}`);
      if (kind === "empty") await Deno.mkdir(target);
      skiff.env.SKIFF_FAULT_MOVE = "before-config";
      const failed = await skiff.run(["skipper", "--move-to", target]);
      delete skiff.env.SKIFF_FAULT_MOVE;
      assertEquals(failed.code, 1, failed.stderr);
      assertMatch(failed.stderr, /^skiff: Failed on purpose before writing projects\.toml/);
      assertEquals(await Deno.readTextFile(skiff.configFile), config);
      assertEquals(await snapshot(old), oldFiles, "the old folder is as it was, no MOVED.md");
      if (kind === "empty") {
        assertEquals(await files(target), [], "the empty folder is empty again");
      } else assert(!(await exists(target)), "the copy was taken away");
      assertEquals(
        (await files(skiff.root)).filter((n) => n.includes("skiff-move")),
        [],
        "no staging folder is left",
      );
    }
    // The ledger still reads the old folder.
    assertEquals((await list(skiff)).rows.length, 1);
  });
});
