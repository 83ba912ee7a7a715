/**
 * The dashboard's layout and frames at 80×24 and 200×60: where the list and
 * the preview go, and that every row of a frame is exactly as wide as the
 * terminal, with the list, the preview and the status row where they
 * belong.
 */

import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { layout } from "../../../lib/dash/draw/layout.ts";
import { renderFrame } from "../../../lib/dash/draw/frame.ts";
import { initialState } from "../../../lib/dash/model/state.ts";
import { textWidth } from "../../../lib/dash/draw/text.ts";
import type { WorkspaceView } from "../../../lib/overview/view.ts";
import type { PaneInfo, PaneState } from "../../../lib/protocol/panes.ts";
import { sampleWatcher } from "../../helpers/pane_info.ts";

function pane(id: number, fields: Partial<PaneInfo> = {}): PaneInfo {
  return {
    id: `p${id}`,
    name: `pane-${id}`,
    project: "api",
    session: `s${id}`,
    session_name: `pane-${id}`,
    pid: 100 + id,
    generation: 1,
    command: ["bash"],
    foreground: null,
    cwd: "/src/api",
    cols: 120,
    rows: 40,
    title: "",
    status: "running",
    agent: null,
    state: "shell",
    state_since: new Date(Date.now() - 90_000).toISOString(),
    unread: false,
    unread_reasons: [],
    person_inputs: 0,
    session_marks: {},
    exit_code: null,
    exit_signal: null,
    attached: 0,
    created: new Date().toISOString(),
    used: null,
    worktree: null,
    diff: null,
    ...fields,
  };
}

function view(panes: PaneInfo[]): WorkspaceView {
  return {
    panes,
    sessions: [],
    projects: [{ name: "api", root: "/src/api" }, { name: "web", root: "/src/web" }],
    watcher: sampleWatcher(),
    skipper: { enabled: true, name: "Skipper", agent: "claude" },
    config_error: null,
  };
}

const PREVIEW = ["\x1b[0;31mred\x1b[0m output", "$ "];

function frame(cols: number, rows: number, panes: PaneInfo[]) {
  const state = initialState();
  state.view = view(panes);
  state.selected = panes[0]?.id ?? "agent";
  const lines = renderFrame(state, layout(cols, rows), {
    lines: (width, height) => PREVIEW.slice(0, height).map((l) => l.slice(0, width + 20)),
  });
  const text = lines.map((line) => line.replace(/\x1b\[[0-9;]*m/g, ""));
  return { lines, text };
}

function agents(n: number): PaneInfo[] {
  const states: PaneState[] = ["working", "idle", "waiting", "shell", "exited", "starting"];
  return Array.from({ length: n }, (_, i) =>
    pane(i + 1, {
      agent: i % 4 === 3 ? null : "claude",
      state: states[i % states.length],
      project: i % 3 === 2 ? null : i % 2 === 0 ? "api" : "web",
      unread: i % 5 === 1,
      unread_reasons: i % 5 === 1 ? ["turn-end"] : [],
      worktree: i === 0
        ? {
          id: "w1",
          name: "fix-parser",
          branch: "fix/parser",
          path: "/wt",
          ahead: 0,
          behind: 0,
          merged: false,
          landed: null,
        }
        : null,
    }));
}

Deno.test("layout: 80×24 puts the preview below the list; 200×60 beside it", () => {
  const small = layout(80, 24);
  assertEquals(small.split?.kind, "below");
  assertEquals([small.list.x, small.list.y, small.list.width], [0, 1, 80]);
  assert(small.preview !== null && small.preview.height >= 8, "a preview of 8 rows or more");
  assertEquals(small.list.height + 1 + small.preview!.height + 2, 24);
  assertEquals(small.status.y, 23);
  const large = layout(200, 60);
  assertEquals(large.split?.kind, "beside");
  assertEquals(large.list.height, 58);
  assertEquals(large.list.width + 1 + large.preview!.width, 200);
  assert(large.preview!.width >= 120, "the preview gets most of a wide terminal");
  // Tiny terminals keep the list alone.
  assertEquals(layout(28, 10).preview, null);
});

for (const [cols, rows] of [[80, 24], [200, 60]] as const) {
  Deno.test(`frame ${cols}×${rows}: every row exactly as wide as the terminal, list, preview and keys`, () => {
    const { lines, text } = frame(cols, rows, agents(30));
    assertEquals(lines.length, rows);
    for (const [i, line] of text.entries()) {
      assertEquals(textWidth(line), cols, `row ${i} is ${textWidth(line)} wide: '${line}'`);
    }
    assertMatch(text[0], /^ Skiff 30 panes · 5 waiting · 6 unread · sort: projects/);
    assertMatch(text[1], /⎈ +Skipper +claude +not started +watcher: nothing to watch/);
    assertMatch(text[2], /^ api +10 panes · 5 working · 2 unread/);
    assert(
      text.some((line) => /^› +pane-1 \[fix\/parser\] +claude +working +[12]m/.test(line)),
      text.join("\n"),
    );
    assert(
      text.some((line) => /● pane-7 +claude +working +[12]m +turn-end/.test(line)),
      text.join("\n"),
    );
    assert(
      text.some((line) =>
        line.includes("pane-1 (p1) claude · working · api · branch fix/parser · /src/api")
      ),
    );
    assert(text.some((line) => line.includes("red output")), "the preview's screen shows");
    assert(lines.some((line) => line.includes("\x1b[0;31mred")), "with its colours");
    assertMatch(text[rows - 1], /^j\/k move · Enter open/);
  });
}

Deno.test("frame: 200 panes fill the list and scroll to keep the selection in sight", () => {
  const panes = agents(200);
  const state = initialState();
  state.view = view(panes);
  state.sort = "attention";
  state.selected = "p199";
  const text = renderFrame(state, layout(80, 24), { lines: () => [] })
    .map((line) => line.replace(/\x1b\[[0-9;]*m/g, ""));
  assert(text.some((line) => line.startsWith("›") && line.includes("pane-199")), text.join("\n"));
});

Deno.test("frame: a worktree pane's row shows its diff from the listing, or landed", () => {
  const tree = {
    id: "w1",
    name: "fix-parser",
    branch: "skiff/fix-parser",
    path: "/wt",
    ahead: 2,
    behind: 0,
    merged: false,
    landed: null,
  };
  const landed = {
    at: new Date().toISOString(),
    into: "main",
    from: "a".repeat(40),
    to: "b".repeat(40),
    strategy: "rebase" as const,
    commits: 2,
  };
  const panes = [
    pane(1, { worktree: tree, diff: { files: 2, added: 12, removed: 3 } }),
    pane(2, {
      worktree: { ...tree, id: "w2", name: "done", ahead: 0, merged: true, landed },
      diff: { files: 0, added: 0, removed: 0 },
    }),
    pane(3, { worktree: { ...tree, id: "w3", name: "fresh", ahead: 0 }, diff: null }),
    pane(4),
  ];
  const { text } = frame(100, 30, panes);
  const row = (name: string) =>
    text.find((line) => /^[ ›] /.test(line) && line.includes(` ${name} `)) ?? "";
  assertMatch(row("pane-1"), /shell +\d+m +\+12 −3 /);
  assertMatch(row("pane-2"), /shell +\d+m +landed /);
  assert(!/[+−]\d/.test(row("pane-3")), row("pane-3"));
  assert(!/landed|[+−]\d/.test(row("pane-4")), row("pane-4"));
  // The preview's title says how far the selected worktree is from its base.
  const wide = frame(200, 30, panes).text;
  assert(wide.some((line) => line.includes("branch skiff/fix-parser, 2 ahead")), wide.join("\n"));
});
