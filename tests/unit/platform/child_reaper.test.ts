import { assert, assertEquals } from "../../helpers/assert.ts";
import { ChildReaper, exitOfStatus } from "../../../lib/platform/child_reaper.ts";

Deno.test("child reaper: a wait status is an exit code or a signal", () => {
  assertEquals(exitOfStatus(7 << 8), { exitCode: 7, signal: 0 });
  assertEquals(exitOfStatus(15), { exitCode: 0, signal: 15 });
});

Deno.test("child reaper: a process that is not this one's child is told as ended, its code unknown", async () => {
  const reaper = ChildReaper.open();
  try {
    // A process of another parent (the test runner's parent); waitpid knows it not.
    const other = Deno.ppid;
    assert(reaper.ended(other), "not a child: as good as ended to this process");
    const exit = await new Promise((resolve) => reaper.watch(other, resolve));
    assertEquals(exit, { exitCode: 0, signal: 0, unknown: true });
    assertEquals(reaper.size, 0);
  } finally {
    reaper.close();
  }
});
