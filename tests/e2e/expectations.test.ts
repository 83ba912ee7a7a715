/**
 * Issue 21's "small expectations": `skiff new` in a project's folder makes
 * a pane of that project; `skiff events` takes `--pane` and `--type` and
 * leaves title events out of text unless asked; a command about a pane that
 * does not exist says so without starting skiffd when none runs.
 */

import { dirname, join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, decodeOutput, MAIN, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import { followEvents } from "../helpers/events.ts";
import { TestTerminal } from "../helpers/terminal.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

async function pane(skiff: SkiffEnv, name: string): Promise<PaneInfo | undefined> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes.find((p) => p.name === name);
}

Deno.test("skiff new run inside a project's folder puts the pane in that project and says so", async () => {
  await withSkiff(async (skiff) => {
    const site = join(skiff.root, "site");
    const src = join(site, "src");
    const docs = join(site, "docs");
    const other = join(skiff.root, "other");
    for (const dir of [src, docs, other]) await Deno.mkdir(dir, { recursive: true });
    await Deno.mkdir(dirname(skiff.configFile), { recursive: true });
    await Deno.writeTextFile(
      skiff.configFile,
      `[projects.site]\nroot = "${site}"\n\n[projects.docs]\nroot = "${docs}"\n`,
    );
    const below = await skiff.run(["new", "--name", "a", "--", ...BASH], { cwd: src });
    assertEquals(below.code, 0, below.stderr);
    assertEquals(below.stderr, "In project site: this folder is in its root\n");
    const a = (await pane(skiff, "a"))!;
    assertEquals([a.project, a.cwd], ["site", src], "the project's, in the folder it was run in");
    // The root itself, and the deepest root when projects nest.
    await skiff.ok(["new", "--name", "b", "--", ...BASH], { cwd: site });
    assertEquals((await pane(skiff, "b"))!.project, "site");
    await skiff.ok(["new", "--name", "c", "--", ...BASH], { cwd: docs });
    assertEquals((await pane(skiff, "c"))!.project, "docs");
    // Outside every project, or when an option says otherwise, no project is taken.
    const outside = await skiff.run(["new", "--name", "d", "--", ...BASH], { cwd: other });
    assertEquals(outside.stderr, "");
    assertEquals((await pane(skiff, "d"))!.project, null);
    const moved = await skiff.run(["new", "--name", "e", "--cwd", other, "--", ...BASH], {
      cwd: src,
    });
    assertEquals(moved.stderr, "");
    assertEquals((await pane(skiff, "e"))!.project, null);
    await skiff.ok(["new", "--name", "f", "--project", "docs", "--", ...BASH], { cwd: src });
    assertEquals((await pane(skiff, "f"))!.project, "docs");
    // JSON says it through the pane.
    const json = await skiff.json<{ pane: PaneInfo }>(["new", "--name", "g", "--", ...BASH], {
      cwd: src,
    });
    assertEquals(json.pane.project, "site");
    // skiffd finds the project with the config it runs on: a broken edit since blocks nothing.
    await Deno.writeTextFile(skiff.configFile, "[daemon]\nscrolback = 1\n", { append: true });
    await skiff.ok(["new", "--name", "h", "--", ...BASH], { cwd: src });
    assertEquals((await pane(skiff, "h"))!.project, "site");
  });
});

/** Runs `skiff events ARGS` until it ends (by --count) and returns its lines. */
async function eventLines(child: Deno.ChildProcess): Promise<string[]> {
  const result = decodeOutput(await child.output());
  assertEquals(result.code, 0, result.stderr);
  return result.stdout.trim().split("\n");
}

Deno.test("skiff events --pane PANE --type TYPE[,TYPE]; text leaves title events out unless asked", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "a", "--", ...BASH]);
    await skiff.ok(["new", "--name", "b", "--", ...BASH]);
    const title = (name: string) => `printf '\\033]0;title-${name}\\007'`;
    const json = await followEvents(skiff, "piped", [
      "--pane",
      "a",
      "--type",
      "title,exit",
      "--json",
      "--count",
      "2",
    ]);
    const text = await followEvents(skiff, "piped", ["--pane", "a", "--count", "1"]);
    const titles = await followEvents(skiff, "piped", ["--type", "title", "--count", "1"]);
    // b's title and exit come first, and none of them is a's.
    await skiff.ok(["keys", "b", `${title("b")}; exit 3`, "Enter"]);
    await waitFor("b to exit", async () => (await pane(skiff, "b"))?.state === "exited");
    await skiff.ok(["keys", "a", `${title("a")}; exit 4`, "Enter"]);
    const events = (await eventLines(json)).map((line) => JSON.parse(line));
    assertEquals(events.map((e) => [e.event, e.name]), [["title", "a"], ["exit", "a"]]);
    assertEquals([events[0].title, events[1].exit_code], ["title-a", 4]);
    // Text with no --type: a's first event that is not a title.
    const [line] = await eventLines(text);
    assert(!/^\d\d:\d\d:\d\d title /.test(line), `no title line in text: ${line}`);
    assertMatch(line, / p\d+ a /);
    // Asked for, a title shows in text.
    const [asked] = await eventLines(titles);
    assertMatch(asked, /^\d\d:\d\d:\d\d title p\d+ b .*title=title-b$/);
    // Bad input: an unknown type names the known ones; an unknown pane is exit 3.
    const bad = await skiff.run(["events", "--type", "turn-end,nope"]);
    assertEquals(bad.code, 2);
    assertMatch(bad.stderr, /^skiff: Unknown event type 'nope'; the types are .*turn-end/);
    assertEquals((await skiff.run(["events", "--pane", "zzz"])).code, 3);
  });
});

Deno.test("a lookup of a pane that does not exist with no skiffd running says so and starts nothing", async () => {
  await withSkiff(async (skiff) => {
    const none =
      "skiff: No pane 'nope': there are no panes (skiffd is not running). See 'skiff new'\n";
    const commands = [
      ["capture", "nope"],
      ["explain", "nope"],
      ["wait", "nope"],
      ["seen", "nope"],
      ["kill", "nope"],
      ["keys", "nope", "x"],
      ["send", "nope", "hello"],
      ["rename", "nope", "other"],
    ];
    for (const args of commands) {
      const result = await skiff.run(args);
      assertEquals([result.code, result.stderr], [3, none], args.join(" "));
    }
    const json = await skiff.run(["capture", "nope", "--json"]);
    assertEquals(JSON.parse(json.stderr).error.code, "not_found");
    // attach needs a terminal: give it one.
    const terminal = await TestTerminal.start(
      [Deno.execPath(), "run", "-A", "-q", MAIN, "attach", "nope"],
      { env: skiff.env, cwd: skiff.root },
    );
    assertEquals(await terminal.exited, 3);
    assertMatch(terminal.raw, /No pane 'nope': there are no panes \(skiffd is not running\)/);
    assertEquals((await skiff.run(["daemon", "status"])).code, 4, "skiffd was not started");
    assert(
      !(await Deno.stat(join(skiff.env.SKIFF_STATE_DIR, "skiffd.app.json")).catch(() => null)),
      "nor the app",
    );
    // With panes saved, a pane that is not among them is refused the same way; one that is
    // brings skiffd back.
    await skiff.ok(["new", "--name", "keep", "--", ...BASH]);
    await skiff.ok(["daemon", "stop"]);
    const other = await skiff.run(["capture", "nope"]);
    assertEquals([other.code, other.stderr], [
      3,
      "skiff: No pane 'nope' (skiffd is not running; it saved 1 pane). See 'skiff ls'\n",
    ]);
    assertEquals((await skiff.run(["daemon", "status"])).code, 4);
    await skiff.ok(["capture", "keep"]);
    assertEquals((await skiff.run(["daemon", "status"])).code, 0, "the saved pane started skiffd");
  });
});
