/**
 * The list's order by project, and the first screen skiffd cuts with it:
 * the dashboard's first rows from a cut listing are the rows of the whole.
 */

import { assertEquals } from "../../helpers/assert.ts";
import {
  countPanes,
  firstPanes,
  listingCut,
  projectGroups,
  sessionGroups,
} from "../../../lib/protocol/workspace_order.ts";
import { SKIFF_AGENT_MARK } from "../../../lib/protocol/sessions.ts";
import type { ListedPane, ListingCut } from "../../../lib/protocol/workspace.ts";
import type { WorkspaceView } from "../../../lib/overview/view.ts";
import { listRows } from "../../../lib/dash/model/rows.ts";
import { samplePane, sampleWatcher } from "../../helpers/pane_info.ts";

/** Pane `p<id>` in `project` and `session` (named after it), as a listing has it. */
function pane(
  id: number,
  project: string | null,
  session: string,
  fields: Partial<ListedPane> = {},
): ListedPane {
  const { foreground: _, ...listed } = samplePane(`p${id}`, {
    name: `pane-${id}`,
    project,
    session,
    session_name: session,
    ...fields,
  });
  return listed;
}

function view(panes: ListedPane[], projects: string[], cut?: ListingCut): WorkspaceView {
  return {
    panes,
    sessions: [],
    projects: projects.map((name) => ({ name, root: `/src/${name}` })),
    watcher: sampleWatcher(),
    skipper: { enabled: true, name: "Skipper", agent: "claude" },
    config_error: null,
    ...(cut ? { cut } : {}),
  };
}

Deno.test("projectGroups: projects.toml's in order (empty ones too), then others as they come, then none", () => {
  const panes = [
    pane(1, null, "s1"),
    pane(2, "web", "s2"),
    pane(3, "extra", "s3"),
    pane(4, "api", "s4"),
    pane(5, "web", "s5"),
  ];
  const groups = projectGroups(panes, ["api", "web", "docs"]);
  assertEquals(
    groups.map((g) => [g.name, g.known, g.panes.map((p) => p.id)]),
    [
      ["api", true, ["p4"]],
      ["web", true, ["p2", "p5"]],
      ["docs", true, []],
      ["extra", false, ["p3"]],
      [null, false, ["p1"]],
    ],
  );
  assertEquals(projectGroups([pane(1, "api", "s1")], []).map((g) => g.name), ["api"]);
});

Deno.test("sessionGroups: a session's panes together, where its first pane is", () => {
  const panes = [pane(1, null, "a"), pane(2, null, "b"), pane(3, null, "a"), pane(4, null, "c")];
  assertEquals(sessionGroups(panes).map((s) => s.map((p) => p.id)), [["p1", "p3"], ["p2"], [
    "p4",
  ]]);
});

Deno.test("countPanes: every pane, working, waiting and unread", () => {
  const panes = [
    pane(1, null, "a", { state: "working" }),
    pane(2, null, "b", { state: "waiting", unread: true }),
    pane(3, null, "c", { unread: true }),
  ];
  assertEquals(countPanes(panes), { panes: 3, working: 1, waiting: 1, unread: 2 });
});

Deno.test("firstPanes: the Skiff agent's and the first N others in the list's order", () => {
  const agent = pane(9, null, "skipper", { session_marks: { [SKIFF_AGENT_MARK]: "1" } });
  const panes = [
    pane(1, null, "a"),
    pane(2, "api", "b"),
    agent,
    pane(3, null, "a"),
    pane(4, "api", "c"),
  ];
  // api's two first, then the loose session a with both its panes (a later pane of a session
  // comes up beside its first one).
  assertEquals(firstPanes(panes, ["api"], 3).map((p) => p.id), ["p9", "p2", "p4", "p1"]);
  assertEquals(firstPanes(panes, ["api"], 4).map((p) => p.id), ["p9", "p2", "p4", "p1", "p3"]);
  assertEquals(firstPanes(panes, ["api"], 1).map((p) => p.id), ["p9", "p2"]);
  // A session's later pane shows beside its first, before the sessions in between.
  const apart = [pane(1, null, "a"), pane(2, null, "b"), pane(3, null, "c"), pane(4, null, "a")];
  assertEquals(firstPanes(apart, [], 2).map((p) => p.id), ["p1", "p4"]);
});

Deno.test("a listing cut to N rows gives the dashboard the first N rows of the whole", () => {
  // A seeded mix of projects, sessions of several panes, loose panes and states.
  let seed = 7;
  const next = (n: number) => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return Math.floor((seed / 2 ** 32) * n);
  };
  const projects = ["api", "web", "docs"];
  const states = ["shell", "working", "waiting", "idle"] as const;
  for (let round = 0; round < 20; round++) {
    const panes: ListedPane[] = [];
    const count = 5 + next(60);
    for (let i = 0; i < count; i++) {
      const project = [...projects, "extra", null][next(5)];
      panes.push(pane(i, project, `${project}-s${next(5)}`, {
        state: states[next(states.length)],
        unread: next(3) === 0,
      }));
    }
    if (next(2) === 0) {
      panes.splice(
        next(count),
        0,
        pane(999, null, "skipper", {
          session_marks: { [SKIFF_AGENT_MARK]: "1" },
        }),
      );
    }
    const whole = listRows(view(panes, projects), { sort: "tree", filter: "" });
    for (const rows of [1, 3, 10, 25]) {
      const kept = new Set(firstPanes(panes, projects, rows).map((p) => p.id));
      const cut = listingCut(panes, projects);
      const part = listRows(view(panes.filter((p) => kept.has(p.id)), projects, cut), {
        sort: "tree",
        filter: "",
      });
      assertEquals(part.slice(0, rows), whole.slice(0, rows), `round ${round}, ${rows} rows`);
    }
  }
});
