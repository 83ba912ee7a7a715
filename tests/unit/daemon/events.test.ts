import { assertEquals } from "../../helpers/assert.ts";
import { EventBus } from "../../../lib/daemon/records/events.ts";
import type { Event } from "../../../lib/protocol/events.ts";

function emitGone(bus: EventBus, pane: string): void {
  bus.emit("gone", { pane, name: pane, generation: 1 });
}

function names(events: Event[]): string[] {
  return events.map((e) => `${e.event}#${e.seq}`);
}

Deno.test("EventBus: events are numbered from 1 within a run, with the run's id", () => {
  const bus = new EventBus({ run: "r1" });
  const got: Event[] = [];
  bus.subscribe((e) => got.push(e));
  emitGone(bus, "p1");
  emitGone(bus, "p2");
  assertEquals(got.map((e) => [e.run, e.seq]), [["r1", 1], ["r1", 2]]);
  assertEquals(bus.cursor(), { run: "r1", seq: 2 });
});

Deno.test("EventBus: a subscriber that says where it was gets what it missed, then new ones", () => {
  const bus = new EventBus({ run: "r1" });
  for (let i = 1; i <= 5; i++) emitGone(bus, `p${i}`);
  const got: Event[] = [];
  bus.subscribe((e) => got.push(e), { after: { run: "r1", seq: 3 } });
  emitGone(bus, "p6");
  assertEquals(names(got), ["gone#4", "gone#5", "gone#6"]);
  const none: Event[] = [];
  bus.subscribe((e) => none.push(e), { after: { run: "r1", seq: 6 } });
  assertEquals(none, []);
});

Deno.test("EventBus: events the backlog lost are announced with a resync, not skipped", () => {
  const bus = new EventBus({ run: "r1", backlog: 3 });
  for (let i = 1; i <= 6; i++) emitGone(bus, `p${i}`);
  const got: Event[] = [];
  bus.subscribe((e) => got.push(e), { after: { run: "r1", seq: 1 } });
  assertEquals(names(got), ["resync#3", "gone#4", "gone#5", "gone#6"]);
  assertEquals((got[0] as { reason: string }).reason, "missed");
});

Deno.test("EventBus: a cursor from another run gets a resync and this run's events", () => {
  const bus = new EventBus({ run: "r2" });
  emitGone(bus, "p1");
  const got: Event[] = [];
  bus.subscribe((e) => got.push(e), { after: { run: "r1", seq: 40 } });
  assertEquals(names(got), ["resync#0", "gone#1"]);
  assertEquals((got[0] as { reason: string }).reason, "new-run");
});

Deno.test("EventBus: a run saved and taken up goes on with its numbers and recent events", () => {
  const bus = new EventBus({ run: "r1" });
  for (let i = 1; i <= 5; i++) emitGone(bus, `p${i}`);
  const next = new EventBus({ from: JSON.parse(JSON.stringify(bus.save())) });
  assertEquals(next.cursor(), { run: "r1", seq: 5 });
  const got: Event[] = [];
  next.subscribe((e) => got.push(e), { after: { run: "r1", seq: 3 } });
  emitGone(next, "p6");
  assertEquals(names(got), ["gone#4", "gone#5", "gone#6"], "no resync, nothing twice");
  assertEquals(got.at(-1)!.run, "r1");
});
