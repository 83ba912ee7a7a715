import { assertEquals } from "../../helpers/assert.ts";
import { EventBus } from "../../../lib/daemon/records/events.ts";
import { WatcherRegistry } from "../../../lib/daemon/server/watcher_health.ts";

Deno.test("skiffd remembers the watcher's lines per pane until the pane is marked seen", () => {
  const events = new EventBus();
  const registry = new WatcherRegistry(events);
  const rev = { pane: "p2", line: "[watch] pane rev 1234abcd is idle." };
  const ops = { pane: "p3", line: "[watch] pane ops 5678abcd is idle." };
  assertEquals(registry.alreadyTold([rev, ops]), []);
  registry.remember([rev]);
  assertEquals(registry.alreadyTold([rev, ops]), [rev.line]);
  // The same text about another pane is another line.
  assertEquals(registry.alreadyTold([{ pane: "p3", line: rev.line }]), []);
  events.emit("seen", { pane: "p2", name: "rev", generation: 1, unread_reasons: ["turn-end"] });
  assertEquals(registry.alreadyTold([rev]), [], "seen: the next idle is news again");
});

Deno.test("a pane never marked seen keeps only its newest lines", () => {
  const registry = new WatcherRegistry(new EventBus());
  for (let i = 0; i < 500; i++) registry.remember([{ pane: "p2", line: `line ${i}` }]);
  assertEquals(registry.alreadyTold([{ pane: "p2", line: "line 0" }]), []);
  assertEquals(registry.alreadyTold([{ pane: "p2", line: "line 499" }]), ["line 499"]);
});
