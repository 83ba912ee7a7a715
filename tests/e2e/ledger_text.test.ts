import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { withSkiff } from "../helpers/skiff.ts";

Deno.test("ledger: task text over 32 KB is refused with one line; ls fits the width, JSON keeps all", async () => {
  await withSkiff(async (skiff) => {
    skiff.env.SKIFF_LEDGER = join(skiff.root, "agent", "ledger.db");
    skiff.env.COLUMNS = "80";
    const huge = await skiff.run(["ledger", "add", "--task", "x".repeat(100 * 1024)]);
    assertEquals(huge.code, 2);
    assertEquals(
      huge.stderr,
      "skiff: Task text is 100 KB; the limit is 32 KB: put the details in a file and name it in the task\n",
    );
    const long = "Review " + "the parser ".repeat(200);
    await skiff.ok(["ledger", "add", "--task", long]);
    const text = await skiff.ok(["ledger", "ls"]);
    for (const line of text.trimEnd().split("\n")) {
      assert([...line].length <= 80, `a line of ${[...line].length} characters: ${line}`);
    }
    assertMatch(text, /Review the parser the parser .*…$/m);
    const { rows } = await skiff.json<{ rows: { task: string }[] }>(["ledger", "ls"]);
    assertEquals(rows[0].task, long);
  });
});
