/**
 * The words the dashboard's `L` and the app's Land button say: the same as
 * `skiff land` prints for every outcome, the question a dry run leads to,
 * and each refusal's one line (conflicting files, the check's last line).
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { landedLine } from "../../../lib/land/mod.ts";
import {
  hasWorkToLand,
  landOutcome,
  landQuestion,
  landRefusal,
  nothingToLand,
} from "../../../lib/overview/landing.ts";
import type { CheckReport, LandOutcome, LandResult } from "../../../lib/protocol/land.ts";

const A = "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b";
const B = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432";

function result(outcome: LandOutcome, fields: Partial<LandResult> = {}): LandResult {
  return {
    outcome,
    dry_run: outcome === "dry_run",
    pane: { id: "p1", name: "fix-a" },
    worktree: { id: "w1", project: "demo", name: "fix-a", path: "/wt", branch: "skiff/fix-a" },
    strategy: "rebase",
    base: { name: "main", before: A, after: B, where: "ref", checkout: null },
    branch: { before: A, after: B },
    committed: null,
    commits: [
      { commit: B, original: A, subject: "one" },
      { commit: B, original: A, subject: "two" },
    ],
    range: `${A}..${B}`,
    diff: { files: 1, added: 2, removed: 0 },
    check: null,
    push: { remote: "origin", branch: "skiff/fix-a", commit: B },
    pr: { url: "https://example.test/pr/7", title: "t", draft: false },
    tasks: [],
    removed: null,
    warnings: [],
    ...fields,
  };
}

Deno.test("landing words: every outcome reads as skiff land prints it", () => {
  for (const outcome of ["landed", "up_to_date", "dry_run", "pushed", "pr"] as const) {
    const fields = outcome === "up_to_date" ? { commits: [], range: null } : {};
    assertEquals(landOutcome(result(outcome, fields)), landedLine(result(outcome, fields)));
  }
  assertEquals(
    landOutcome(result("landed")),
    `Landed 2 commits of skiff/fix-a on main (rebase): ${A.slice(0, 12)}..${B.slice(0, 12)}`,
  );
  // A dry run names the base's commit it would rebase onto.
  assertEquals(
    landedLine(result("dry_run")),
    `Would land 2 commits of skiff/fix-a onto main at ${A.slice(0, 12)} (rebase)`,
  );
  // A warning (the ledger could not be written) follows the line; the landing stands.
  assertEquals(
    landOutcome(result("landed", { warnings: ["The ledger is locked"] })),
    `${landedLine(result("landed"))} · The ledger is locked`,
  );
});

Deno.test("landing words: the question names the branch, the base and the commits", () => {
  const dry = result("dry_run");
  assertEquals(landQuestion(dry), "Land 2 commits of skiff/fix-a onto main (rebase)?");
  const check: CheckReport = {
    command: "deno task check",
    cwd: "/wt",
    ran: false,
    exit_code: null,
    timed_out: false,
    duration_ms: null,
    output_tail: [],
  };
  assertEquals(
    landQuestion(result("dry_run", {
      check,
      commits: [dry.commits[0]],
      base: { ...dry.base, where: "checkout", checkout: "/src/repo" },
    })),
    "Land 1 commit of skiff/fix-a onto main (checked out in /src/repo) (rebase), after the check 'deno task check'?",
  );
  assert(hasWorkToLand(dry));
  const nothing = result("up_to_date", { commits: [], range: null });
  assert(!hasWorkToLand(nothing));
  assertEquals(nothingToLand(nothing), "Nothing to land: main has everything on skiff/fix-a");
});

Deno.test("landing words: a conflict lists its files, a failed check its last line", () => {
  assertEquals(
    landRefusal("Conflict", {
      reason: "merge_conflict",
      conflicts: ["app.txt", "lib/x.ts"],
      commit: A,
    }),
    "Conflict applying 1a2b3c4 in app.txt, lib/x.ts: nothing changed",
  );
  const check: CheckReport = {
    command: "deno task check",
    cwd: "/wt",
    ran: true,
    exit_code: 1,
    timed_out: false,
    duration_ms: 1200,
    output_tail: ["Checking…", "error: 2 tests failed", "", "  "],
  };
  assertEquals(
    landRefusal("The check failed", { reason: "check_failed", check }),
    "Check failed (exit 1): error: 2 tests failed: not landed",
  );
  assertEquals(
    landRefusal("The check ran too long", {
      reason: "check_failed",
      check: { ...check, timed_out: true, exit_code: null },
    }),
    "Check 'deno task check' ran too long and was ended: not landed",
  );
  // Every other refusal: its own line.
  const dirty = "The checkout /src/repo holds changes: commit or stash them, then land";
  assertEquals(landRefusal(dirty, { reason: "base_dirty", files: ["x"] }), dirty);
  assertEquals(landRefusal("No pane 'zz'"), "No pane 'zz'");
});
