/** A pane's tasks from a ledger listing: open first, first lines, plans' tasks included. */

import { assertEquals } from "../../helpers/assert.ts";
import { firstLine, paneTasks } from "../../../lib/overview/tasks.ts";
import type { TaskJson } from "../../../lib/ledger/json.ts";

function row(uid: string, fields: Partial<TaskJson>): TaskJson {
  return {
    id: 1,
    uid,
    kind: "task",
    state: "sent",
    stored_state: "sent",
    host: null,
    pane: "p1",
    pane_name: "w",
    generation: 1,
    branch: null,
    task: "do it",
    result: `/r/${uid}.md`,
    ref: null,
    parent: null,
    created_at: "",
    updated_at: "",
    sent_at: null,
    done_at: null,
    note: null,
    worktree: null,
    landed: null,
    ...fields,
  };
}

Deno.test("tasks: a pane's tasks, open ones first, plans' tasks included", () => {
  const rows = [
    row("aaaaaaaa", { state: "done", task: "first\nsecond" }),
    row("bbbbbbbb", { pane: "p2" }),
    row("cccccccc", {
      kind: "plan",
      pane: null,
      tasks: [row("dddddddd", { state: "interrupted", task: "  fix the parser\nmore" })],
    }),
    row("eeeeeeee", { state: "gone" }),
  ];
  assertEquals(paneTasks(rows, "p1"), [
    { uid: "dddddddd", state: "interrupted", first: "fix the parser", result: "/r/dddddddd.md" },
    { uid: "eeeeeeee", state: "gone", first: "do it", result: "/r/eeeeeeee.md" },
    { uid: "aaaaaaaa", state: "done", first: "first", result: "/r/aaaaaaaa.md" },
  ]);
  assertEquals(paneTasks(rows, "p9"), []);
  assertEquals(firstLine("\n\n  one  \ntwo"), "one");
});
