import { assert, assertEquals } from "../../helpers/assert.ts";
import {
  emptyWorkspace,
  loadWorkspace,
  saveWorkspace,
  type WorkspaceData,
} from "../../../lib/daemon/records/workspace.ts";
import { join } from "node:path";

function tempDir(): { path: string; [Symbol.dispose](): void } {
  const path = Deno.makeTempDirSync({ prefix: "skiff-ws-" });
  return { path, [Symbol.dispose]: () => Deno.removeSync(path, { recursive: true }) };
}

function sample(): WorkspaceData {
  return {
    version: 1,
    next_pane: 4,
    next_session: 3,
    sessions: [
      { id: "s1", name: "main", marks: {}, created: "2024-01-01T00:00:00.000Z" },
      {
        id: "s2",
        name: "web",
        project: "web",
        marks: { "skiff.agent": "1" },
        created: "2024-01-02T00:00:00.000Z",
      },
    ],
    panes: [
      {
        id: "p1",
        name: "shell",
        session: "s1",
        cwd: "/tmp",
        command: ["bash", "-l"],
        env: { A: "1" },
        cols: 80,
        rows: 24,
        created: "2024-01-01T00:00:00.000Z",
        generation: 1700000000000,
      },
      {
        id: "p3",
        name: "dev",
        session: "s2",
        project: "web",
        cwd: "/srv/web",
        command: [],
        env: {},
        cols: 120,
        rows: 40,
        created: "2024-01-02T00:00:00.000Z",
        generation: 1700000000001,
      },
    ],
  };
}

function files(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

Deno.test("loadWorkspace: a missing file gives an empty workspace", () => {
  using dir = tempDir();
  const loaded = loadWorkspace(join(dir.path, "workspace.json"));
  assertEquals(loaded, { data: emptyWorkspace() });
  assertEquals(emptyWorkspace(), {
    version: 1,
    next_pane: 1,
    next_session: 1,
    sessions: [],
    panes: [],
  });
  assertEquals(files(dir.path), []);
});

Deno.test("saveWorkspace then loadWorkspace round trips", () => {
  using dir = tempDir();
  const path = join(dir.path, "state", "deeper", "workspace.json");
  saveWorkspace(path, sample());
  assertEquals(loadWorkspace(path), { data: sample() });
  // Saving again replaces the file and leaves no temporary files.
  const next = { ...sample(), next_pane: 9, panes: [] };
  saveWorkspace(path, next);
  assertEquals(loadWorkspace(path).data, next);
  assertEquals(files(join(dir.path, "state", "deeper")), ["workspace.json"]);
  assert(Deno.readTextFileSync(path).endsWith("}\n"), "ends with a newline");
});

Deno.test("saveWorkspace: the file is 0600 and its folder 0700", () => {
  using dir = tempDir();
  const folder = join(dir.path, "state");
  const path = join(folder, "workspace.json");
  saveWorkspace(path, sample());
  assertEquals(Deno.statSync(path).mode! & 0o777, 0o600);
  assertEquals(Deno.statSync(folder).mode! & 0o777, 0o700);
  // Also when it replaces a more open file.
  Deno.chmodSync(path, 0o644);
  saveWorkspace(path, sample());
  assertEquals(Deno.statSync(path).mode! & 0o777, 0o600);
});

Deno.test("loadWorkspace: a corrupt file is renamed aside, never deleted", () => {
  const cases = [
    "{not json",
    "",
    "[]",
    "null",
    JSON.stringify({ ...sample(), version: 2 }),
    JSON.stringify({ ...sample(), panes: {} }),
    JSON.stringify({ ...sample(), sessions: undefined }),
    JSON.stringify({ ...sample(), next_pane: "4" }),
    JSON.stringify({ ...sample(), next_session: null }),
  ];
  for (const text of cases) {
    using dir = tempDir();
    const path = join(dir.path, "workspace.json");
    Deno.writeTextFileSync(path, text);
    const loaded = loadWorkspace(path);
    assertEquals(loaded.data, emptyWorkspace(), text);
    assert(loaded.setAside !== undefined, `set aside: ${text}`);
    assert(loaded.setAside.startsWith(`${path}.unreadable-`), loaded.setAside);
    assertEquals(Deno.readTextFileSync(loaded.setAside), text, "content kept");
    assertEquals(files(dir.path), [loaded.setAside.slice(dir.path.length + 1)]);
    // The next load starts afresh.
    assertEquals(loadWorkspace(path), { data: emptyWorkspace() });
  }
});

Deno.test("loadWorkspace: invalid entries are filtered, valid ones kept", () => {
  using dir = tempDir();
  const path = join(dir.path, "workspace.json");
  const good = sample();
  const pane = good.panes[0];
  const session = good.sessions[0];
  const raw = {
    ...good,
    sessions: [
      session,
      null,
      "s9",
      { ...session, id: 9 },
      { ...session, name: undefined },
      { ...session, marks: [] },
      { ...session, marks: null },
      good.sessions[1],
    ],
    panes: [
      { ...pane, id: undefined },
      { ...pane, session: 1 },
      { ...pane, cwd: null },
      { ...pane, command: "bash" },
      { ...pane, env: [] },
      { ...pane, cols: "80" },
      { ...pane, rows: undefined },
      { ...pane, generation: "1" },
      { ...pane, name: 5 },
      [],
      pane,
      good.panes[1],
    ],
  };
  Deno.writeTextFileSync(path, JSON.stringify(raw));
  const loaded = loadWorkspace(path);
  assertEquals(loaded.setAside, undefined);
  assertEquals(loaded.data.sessions, good.sessions);
  assertEquals(loaded.data.panes, good.panes);
  assertEquals([loaded.data.next_pane, loaded.data.next_session], [4, 3]);
});

Deno.test("loadWorkspace: a file that cannot be read is an error, not set aside", () => {
  using dir = tempDir();
  const path = join(dir.path, "workspace.json");
  Deno.mkdirSync(path);
  let threw = false;
  try {
    loadWorkspace(path);
  } catch {
    threw = true;
  }
  assert(threw, "reading a folder throws");
  assertEquals(files(dir.path), ["workspace.json"]);
});

Deno.test("loading removes the temporary files of saves a crash cut off, and nothing else", () => {
  using dir = tempDir();
  const path = join(dir.path, "skiffd.workspace.json");
  saveWorkspace(path, sample());
  Deno.writeTextFileSync(`${path}.tmp-123-abcd1234`, '{"version":1,"pan');
  Deno.writeTextFileSync(join(dir.path, "dev.workspace.json.tmp-9-ffff0000"), "another's");
  Deno.writeTextFileSync(join(dir.path, "notes.txt"), "mine");
  assertEquals(loadWorkspace(path).data, sample());
  const names = [...Deno.readDirSync(dir.path)].map((e) => e.name).sort();
  assertEquals(names, ["dev.workspace.json.tmp-9-ffff0000", "notes.txt", "skiffd.workspace.json"]);
});

Deno.test("loadWorkspace: an exit that does not read as one is dropped, the pane kept; a good one kept", () => {
  using dir = tempDir();
  const path = join(dir.path, "workspace.json");
  const good = sample();
  const exited = { code: 3, signal: 0, at: "2024-01-03T00:00:00.000Z" };
  const raw = {
    ...good,
    panes: [
      { ...good.panes[0], exited },
      { ...good.panes[1], exited: { code: "3", signal: 0, at: "yesterday" } },
    ],
  };
  Deno.writeTextFileSync(path, JSON.stringify(raw));
  const loaded = loadWorkspace(path);
  assertEquals(loaded.data.panes[0].exited, exited);
  assertEquals(loaded.data.panes[1], good.panes[1]);
});
