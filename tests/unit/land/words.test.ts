/** The words of a landing: commit messages, squash and merge messages, a pull request's text. */

import { assertEquals, assertMatch } from "../../helpers/assert.ts";
import {
  commitMessage,
  landingSubject,
  mergeMessage,
  pullRequestText,
  squashMessage,
  subjectOf,
} from "../../../lib/land/words.ts";

const NONE = { name: "fix", branch: "skiff/fix", tasks: [] };
const ONE = { ...NONE, tasks: [{ uid: "3f2a9c1b", task: "Fix the parser" }] };
const TWO = { ...NONE, tasks: [...ONE.tasks, { uid: "7c2e91ab", task: "Add a test" }] };

Deno.test("subjectOf: the first line, trimmed, cut to 72 characters with an ellipsis", () => {
  assertEquals(subjectOf("  Fix it  \nmore words"), "Fix it");
  const long = "x".repeat(100);
  assertEquals([...subjectOf(long)].length, 72);
  assertMatch(subjectOf(long), /…$/);
  assertEquals(subjectOf("é".repeat(72)), "é".repeat(72));
});

Deno.test("messages: from the task, the tasks, or the worktree's name", () => {
  assertEquals(landingSubject(NONE), "Work from worktree fix (skiff/fix)");
  assertEquals(commitMessage(NONE), "Work from worktree fix (skiff/fix)\n");
  assertEquals(commitMessage(ONE), "Fix the parser\n\nSkiff task 3f2a9c1b.\n");
  assertEquals(
    commitMessage(TWO),
    "2 tasks from worktree fix (skiff/fix)\n\n- Fix the parser (task 3f2a9c1b)\n- Add a test (task 7c2e91ab)\n",
  );
  assertEquals(
    squashMessage(ONE, ["a", "b"]),
    "Fix the parser\n\n- Fix the parser (task 3f2a9c1b)\n\nSquashed from skiff/fix:\n* a\n* b\n",
  );
  assertEquals(mergeMessage(NONE, "main"), "Merge branch 'skiff/fix' into main\n");
  assertEquals(
    mergeMessage(ONE, "main"),
    "Merge branch 'skiff/fix' into main\n\n- Fix the parser (task 3f2a9c1b)\n",
  );
});

Deno.test("pullRequestText: the subject as title; tasks, commits and the diffstat in the body", () => {
  const { title, body } = pullRequestText(TWO, ["One", "Two"], " a.txt | 1 +\n");
  assertEquals(title, "2 tasks from worktree fix (skiff/fix)");
  assertEquals(
    body,
    [
      "Tasks:",
      "",
      "- Fix the parser (task 3f2a9c1b)",
      "- Add a test (task 7c2e91ab)",
      "",
      "Commits:",
      "",
      "- One",
      "- Two",
      "",
      "```",
      " a.txt | 1 +",
      "```",
      "",
      "Opened by Skiff from worktree fix (skiff/fix).",
      "",
    ].join("\n"),
  );
  assertEquals(pullRequestText(NONE, ["One"], "").body.includes("Tasks:"), false);
});
