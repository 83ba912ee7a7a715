import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { withSkiff } from "../helpers/skiff.ts";

Deno.test("ledger: task text over 32 KB is refused with one line; ls piped and JSON keep all", async () => {
  await withSkiff(async (skiff) => {
    skiff.env.SKIFF_LEDGER = join(skiff.root, "agent", "ledger.db");
    const huge = await skiff.run(["ledger", "add", "--task", "x".repeat(100 * 1024)]);
    assertEquals(huge.code, 2);
    assertEquals(
      huge.stderr,
      "skiff: Task text is 100 KB; the limit is 32 KB: put the details in a file and name it in the task\n",
    );
    const long = "Review " + "the parser ".repeat(200);
    await skiff.ok(["ledger", "add", "--task", long]);
    // Piped, no column is cut (issue 28, case 13; on a terminal, see piped_columns.test.ts).
    const text = await skiff.ok(["ledger", "ls"]);
    assert(text.trimEnd().endsWith(long.trimEnd()), text.slice(0, 200));
    const { rows } = await skiff.json<{ rows: { task: string }[] }>(["ledger", "ls"]);
    assertEquals(rows[0].task, long);
  });
});
