import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";

Deno.test("a shell round trip: new, keys, capture, ls", async () => {
  await withSkiff(async (skiff) => {
    const id = (await skiff.ok(["new", "--name", "web", "--size", "90x20", "--", ...BASH])).trim();
    assertMatch(id, /^p\d+$/);
    await skiff.ok(["keys", "web", "echo round-$((6*7))-trip", "Enter"]);
    const screen = await skiff.waitForScreen("web", /^round-42-trip$/m);
    assert(screen.includes("echo round-$((6*7))-trip"), "the typed command echoes");

    const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
    assertEquals(panes.length, 1);
    const pane = panes[0];
    assertEquals(pane.id, id);
    assertEquals(pane.name, "web");
    assertEquals([pane.cols, pane.rows], [90, 20]);
    assertEquals(pane.status, "running");
    assertEquals(pane.command, BASH);
    assertEquals(pane.foreground?.comm, "bash");
    assert(pane.pid! > 0 && pane.generation > 0);
    assertEquals(pane.cwd, skiff.env.HOME);
    assertEquals(pane.session_name, "web");

    // project/name and id address the same pane.
    const byId = await skiff.json<{ text: string }>(["capture", id]);
    assert(byId.text.includes("round-42-trip"));

    const text = await skiff.ok(["ls"]);
    assertMatch(
      text,
      /^ID\s+NAME\s+PROJECT\s+BRANCH\s+SESSION\s+FRONT\s+STATE\s+UNREAD\s+CWD\s+TITLE$/m,
    );
    assertMatch(text, new RegExp(`^${id}\\s+web\\s+-\\s+-\\s+web\\s+bash\\s+shell\\s+-\\s+~`, "m"));
  });
});

Deno.test("capture --json gives cursor, size, title, alternate flag and rows", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "t", "--size", "60x10", "--", ...BASH]);
    await skiff.ok([
      "keys",
      "t",
      "printf '\\033]2;my title\\007'; printf '\\033[1;31mred\\033[0m\\n'",
      "Enter",
    ]);
    await skiff.waitForScreen("t", /^red$/m);
    const snap = await skiff.json<{
      cols: number;
      rows: number;
      title: string;
      alternate: boolean;
      cursor: { x: number; y: number };
      lines: string[];
    }>(["capture", "t"]);
    assertEquals([snap.cols, snap.rows], [60, 10]);
    assertEquals(snap.title, "my title");
    assertEquals(snap.alternate, false);
    assertEquals(snap.lines.length, 10);
    assert(snap.cursor.y >= 2 && snap.cursor.y < 10);
    const ansi = await skiff.ok(["capture", "t", "--ansi"]);
    assert(ansi.includes("\x1b[0;1;31mred\x1b[0m"), `SGR kept: ${JSON.stringify(ansi)}`);
  });
});

Deno.test("a full-screen program renders on the alternate screen and exits cleanly", async () => {
  await withSkiff(async (skiff) => {
    const file = `${skiff.root}/story.txt`;
    await Deno.writeTextFile(
      file,
      Array.from({ length: 200 }, (_, i) => `line ${String(i + 1).padStart(3, "0")}`).join("\n"),
    );
    await skiff.ok(["new", "--name", "pager", "--size", "80x24", "--", "less", file]);
    const screen = await skiff.waitForScreen("pager", /line 023/);
    assert(screen.startsWith("line 001"), "less starts at the top");
    assert(!screen.includes("line 024\n"), "only a screenful shows");
    let snap = await skiff.json<{ alternate: boolean }>(["capture", "pager"]);
    assertEquals(snap.alternate, true);
    await skiff.ok(["keys", "pager", "G"]);
    await skiff.waitForScreen("pager", /line 200/);
    await skiff.ok(["keys", "pager", "q"]);
    const pane = await waitExited(skiff, "pager");
    assertEquals(pane.exit_code, 0);
    snap = await skiff.json<{ alternate: boolean }>(["capture", "pager"]);
    assertEquals(snap.alternate, false);
  });
});

Deno.test("vim draws its screen and takes keys", async () => {
  await withSkiff(async (skiff) => {
    const file = `${skiff.root}/note.txt`;
    await skiff.ok([
      "new",
      "--name",
      "ed",
      "--size",
      "80x24",
      "--",
      "vim",
      "-u",
      "NONE",
      "-N",
      file,
    ]);
    await skiff.waitForScreen("ed", /^~\s*$/m);
    await skiff.ok(["keys", "ed", "i", "hello from vim", "Escape", ":wq", "Enter"]);
    await waitExited(skiff, "ed");
    assertEquals((await Deno.readTextFile(file)).trim(), "hello from vim");
  });
});

Deno.test("a pane that exits stays listed as exited, with its last screen", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "short", "--", "sh", "-c", "echo last words; exit 3"]);
    const pane = await waitExited(skiff, "short");
    assertEquals(pane.exit_code, 3);
    assertEquals(pane.pid, null);
    assert((await skiff.ok(["capture", "short"])).includes("last words"));
    const keys = await skiff.run(["keys", "short", "x"]);
    assertEquals(keys.code, 10);
    assertMatch(keys.stderr, /^skiff: Pane 'short' is not running\n$/);
    assertMatch(await skiff.ok(["ls"]), /short .*exited \(3\)/);
    await skiff.ok(["kill", "short"]);
    assertEquals((await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes.length, 0);
  });
});

Deno.test("names are unique, ids are never reused, rename and kill work", async () => {
  await withSkiff(async (skiff) => {
    const a = (await skiff.ok(["new", "--name", "a", "--", ...BASH])).trim();
    const dup = await skiff.run(["new", "--name", "a", "--", ...BASH]);
    assertEquals(dup.code, 5);
    assertEquals(dup.stderr, "skiff: A pane named 'a' exists already\n");
    const bad = await skiff.run(["new", "--name", "p9", "--", ...BASH]);
    assertEquals(bad.code, 2);
    await skiff.ok(["rename", "a", "alpha"]);
    const renamed = await skiff.json<{ pane: PaneInfo }>(["rename", a, "alpha2"]);
    assertEquals(renamed.pane.name, "alpha2");
    await skiff.ok(["kill", "alpha2"]);
    const missing = await skiff.run(["capture", "alpha2"]);
    assertEquals(missing.code, 3);
    assertEquals(missing.stderr, "skiff: No pane 'alpha2'. See 'skiff ls'\n");
    const b = (await skiff.ok(["new", "--", ...BASH])).trim();
    assert(Number(b.slice(1)) > Number(a.slice(1)), `new id ${b} comes after ${a}`);
    // Default names come from the command and stay unique.
    const c = await skiff.json<{ pane: PaneInfo }>(["new", "--", ...BASH]);
    const names = (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes.map((p) => p.name);
    assertEquals(names, ["bash", "bash-2"]);
    assertEquals(c.pane.name, "bash-2");
  });
});

Deno.test("--env, --cwd and projects set a pane's environment and folder", async () => {
  await withSkiff(async (skiff) => {
    const root = `${skiff.root}/proj`;
    await Deno.mkdir(root);
    await skiff.ok(["project", "add", "api", root, "--command", "bash --norc --noprofile"]);
    const pane = (await skiff.json<{ pane: PaneInfo }>([
      "new",
      "--project",
      "api",
      "--name",
      "rev",
      "--env",
      "FLAVOR=mint",
    ])).pane;
    assertEquals(pane.project, "api");
    assertEquals(pane.cwd, root);
    assertEquals(pane.command, BASH);
    await skiff.ok(["keys", "rev", "echo $FLAVOR:$SKIFF_PANE:$PWD:$TERM", "Enter"]);
    await skiff.waitForScreen("rev", new RegExp(`^mint:${pane.id}:${root}:xterm-256color$`, "m"));
    assert(
      (await skiff.ok(["capture", "api/rev"])).includes("mint"),
      "project/name addresses the pane",
    );
    const elsewhere = `${skiff.root}/other`;
    await Deno.mkdir(elsewhere);
    const other =
      (await skiff.json<{ pane: PaneInfo }>(["new", "--cwd", elsewhere, "--", ...BASH])).pane;
    assertEquals(other.cwd, elsewhere);
    const noProject = await skiff.run(["new", "--project", "nope"]);
    assertEquals(noProject.code, 3);
    const noDir = await skiff.run(["new", "--cwd", `${skiff.root}/missing`]);
    assertEquals(noDir.code, 2);
  });
});

Deno.test("marks are set, shown and cleared", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "boss", "--", ...BASH]);
    await skiff.ok(["mark", "boss", "skiff.agent=skipper"]);
    await skiff.ok(["mark", "boss", "flag"]);
    assertEquals(await skiff.ok(["mark", "boss"]), "skiff.agent=skipper\nflag\n");
    const cleared = await skiff.json<{ marks: Record<string, string> }>([
      "mark",
      "boss",
      "--clear",
      "flag",
    ]);
    assertEquals(cleared.marks, { "skiff.agent": "skipper" });
    assertEquals((await skiff.run(["mark", "nobody", "x=1"])).code, 3);
  });
});

async function waitExited(skiff: SkiffEnv, name: string): Promise<PaneInfo> {
  return await waitFor(`pane ${name} to exit`, async () => {
    const { panes } = await skiff.json<{ panes: PaneInfo[] }>(["ls"]);
    const pane = panes.find((p) => p.name === name);
    return pane?.status === "exited" ? pane : undefined;
  });
}
