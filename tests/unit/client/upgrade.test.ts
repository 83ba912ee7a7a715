import { assertEquals } from "../../helpers/assert.ts";
import { keptPanes } from "../../../lib/client/upgrade.ts";
import type { UpgradeOutcome } from "../../../lib/protocol/daemon.ts";

const outcome = (panes: number, running?: number): UpgradeOutcome => ({
  id: "u1",
  ok: true,
  from: "0.1.0",
  version: "0.1.0",
  panes,
  ...(running === undefined ? {} : { running_panes: running }),
  ms: {},
  at: new Date(0).toISOString(),
});

Deno.test("keptPanes: counts as daemon status does, and says less for an older skiffd's outcome", () => {
  assertEquals(keptPanes(outcome(4, 2)), "4 panes kept (2 running)");
  assertEquals(keptPanes(outcome(1, 1)), "1 pane kept (1 running)");
  assertEquals(keptPanes(outcome(0, 0)), "0 panes kept (0 running)");
  assertEquals(keptPanes(outcome(3)), "3 panes kept");
});
