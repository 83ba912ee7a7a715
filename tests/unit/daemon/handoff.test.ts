import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import {
  type Handoff,
  HANDOFF_VERSION,
  readHandoff,
  writeHandoff,
} from "../../../lib/daemon/upgrade/handoff.ts";
import { upgradeRequest } from "../../../lib/daemon/server/upgrade_request.ts";
import { Screen } from "../../../lib/screen/screen.ts";
import { emptyWorkspace } from "../../../lib/daemon/records/workspace.ts";

function handoff(): Handoff {
  const screen = new Screen(20, 5, { scrollback: 10, respond: () => {} });
  screen.writeSync(new TextEncoder().encode("hello"));
  const data = emptyWorkspace();
  data.panes.push({
    id: "p1",
    name: "one",
    session: "s1",
    cwd: "/",
    command: ["sh"],
    env: {},
    cols: 20,
    rows: 5,
    created: new Date(0).toISOString(),
    generation: 1,
  });
  const state = screen.saveState();
  screen.dispose();
  return {
    format: "skiff-handoff",
    version: HANDOFF_VERSION,
    id: "u1",
    from: { version: "0.1.0", protocol: 1, argv: ["/bin/skiff"], pid: 1 },
    socket: "/tmp/x.sock",
    started: new Date(0).toISOString(),
    frozen_at: 0,
    fault: null,
    fds: { listener: 3, lock: 4 },
    events: { run: "r1", seq: 0, backlog: [] },
    workspace: {
      data,
      last_generation: 1,
      endings: { ended: [], removed: [] },
      doomed: [],
    },
    panes: [{
      id: "p1",
      pid: 100,
      fd: 5,
      exit: null,
      exited_at: null,
      screen: state,
      tracker: null,
      state_since: 0,
      person_typed_at: 0,
      person_inputs: 0,
    }],
    told: {},
    children: [],
    timings: {},
  };
}

Deno.test("handoff: written and read back whole", () => {
  const file = Deno.makeTempFileSync();
  try {
    const written = handoff();
    writeHandoff(file, written);
    assertEquals(readHandoff(file), written);
    assertEquals(Deno.statSync(file).mode! & 0o777, 0o600);
  } finally {
    Deno.removeSync(file);
  }
});

Deno.test("handoff: another version, another file, or a pane without its process is refused in one line", () => {
  const file = Deno.makeTempFileSync();
  try {
    writeHandoff(file, { ...handoff(), version: 99 });
    assertThrows(
      () => readHandoff(file),
      /^the handoff is of version 99, and this skiff reads 1, 2, 3, 4$/,
    );
    // A skiffd from before sleeping screens writes version 1: still read.
    writeHandoff(file, { ...handoff(), version: 1 });
    assertEquals(readHandoff(file).version, 1);
    // Output handed over unparsed (version 3) is read back as it was written.
    const waiting = handoff();
    waiting.panes[0].waiting = "eXl5";
    writeHandoff(file, waiting);
    assertEquals(readHandoff(file).panes[0].waiting, "eXl5");
    (waiting.panes[0] as unknown as Record<string, unknown>).waiting = 7;
    writeHandoff(file, waiting);
    assertThrows(() => readHandoff(file), /the handoff is not whole/);
    // A busy pane's older history handed over apart (version 4) is read back as written.
    const aside = handoff();
    aside.panes[0].history_aside = { vt: "old line\r\n", lines: 1 };
    writeHandoff(file, aside);
    assertEquals(readHandoff(file).panes[0].history_aside, { vt: "old line\r\n", lines: 1 });
    for (const bad of [{ vt: 3, lines: 1 }, { vt: "", lines: -1 }, "old line"]) {
      (aside.panes[0] as unknown as Record<string, unknown>).history_aside = bad;
      writeHandoff(file, aside);
      assertThrows(() => readHandoff(file), /the handoff is not whole/);
    }
    Deno.writeTextFileSync(file, "{}");
    assertThrows(() => readHandoff(file), /is not a skiffd handoff/);
    Deno.writeTextFileSync(file, "not json");
    assertThrows(() => readHandoff(file), /cannot read the handoff/);
    const lost = handoff();
    lost.panes = [];
    writeHandoff(file, lost);
    assertThrows(() => readHandoff(file), /no process or screen for pane p1/);
    const broken = handoff();
    (broken.panes[0] as unknown as Record<string, unknown>).screen = { version: 7 };
    writeHandoff(file, broken);
    assertThrows(() => readHandoff(file), /not whole/);
  } finally {
    Deno.removeSync(file);
  }
});

Deno.test("daemon.upgrade params: an id, an absolute program, a known fault", () => {
  assertEquals(upgradeRequest({ id: "a1", program: ["/bin/x", "daemon", "run"] }), {
    id: "a1",
    program: ["/bin/x", "daemon", "run"],
  });
  assertEquals(upgradeRequest({ id: "a1", fault: "freeze" }), { id: "a1", fault: "freeze" });
  assertThrows(() => upgradeRequest({ id: "../x" }), /'id' must be/);
  assertThrows(() => upgradeRequest({ id: "a", program: ["x"] }), /absolute path/);
  assertThrows(() => upgradeRequest({ id: "a", program: [] }), /absolute path/);
  assertThrows(() => upgradeRequest({ id: "a", fault: "nope" }), /'fault' must be one of check/);
});
