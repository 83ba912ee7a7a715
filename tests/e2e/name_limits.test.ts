/**
 * Issue 28, case 12: a pane, session or project name over 64 characters is
 * refused with a line that states the limit, as worktree names, host names
 * and mark keys do, not with one about characters alone.
 */

import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, withSkiff } from "../helpers/skiff.ts";

/** 65 characters, each of them allowed: only the length is wrong. */
const LONG = "n".repeat(65);
/** 64 characters: the longest name there may be. */
const LONGEST = "m".repeat(64);

Deno.test("issue 28, case 12: a name over 64 characters is refused with the limit stated (new --name, new --session, project add, rename)", async () => {
  await withSkiff(async (skiff) => {
    const limit = /use 1 to 64 letters, digits, '\.', '_' and '-', starting with a letter or digit/;

    const pane = await skiff.run(["new", "--name", LONG, "--", ...BASH]);
    assertEquals(pane.code, 2, pane.stderr);
    assertMatch(pane.stderr, new RegExp(`^skiff: Bad pane name '${LONG}': ${limit.source}`));
    assertEquals(pane.stderr.trim().split("\n").length, 1, pane.stderr);

    const session = await skiff.run(["new", "--session", LONG, "--", ...BASH]);
    assertEquals(session.code, 2, session.stderr);
    assertMatch(session.stderr, new RegExp(`^skiff: Bad session name '${LONG}': ${limit.source}`));

    const project = await skiff.run(["project", "add", LONG, skiff.root]);
    assertEquals(project.code, 2, project.stderr);
    assertMatch(
      project.stderr,
      new RegExp(
        `^skiff: Bad project name '${LONG}': use 1 to 64 letters, digits, '_' and '-', ` +
          "starting with a letter or digit",
      ),
    );
    assertEquals((await skiff.run(["project", "ls"])).stdout.includes(LONG), false);

    await skiff.ok(["new", "--name", "web", "--", ...BASH]);
    const renamed = await skiff.run(["rename", "web", LONG]);
    assertEquals(renamed.code, 2, renamed.stderr);
    assertMatch(renamed.stderr, new RegExp(`^skiff: Bad pane name '${LONG}': ${limit.source}`));

    // 64 is the limit, not 63: the longest name is taken.
    await skiff.ok(["rename", "web", LONGEST]);
    await skiff.ok(["project", "add", LONGEST, skiff.root]);
    const names = (await skiff.json<{ panes: { name: string }[] }>(["ls"])).panes.map((p) =>
      p.name
    );
    assertEquals(names, [LONGEST]);
  });
});
