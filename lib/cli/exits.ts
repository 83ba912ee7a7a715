/**
 * What each exit code means, in the words `--help` and the manual (docs/exit-codes.md) use. A
 * command lists the names it uses; a meaning particular to the command may
 * replace the general one.
 *
 * @module
 */

import { Exit, type ExitName } from "../errors.ts";
import type { ExitUse } from "./spec.ts";

/** The general meaning of every exit code. */
export const EXIT_MEANINGS: Record<ExitName, string> = {
  OK: "Success",
  ERROR: "Internal error",
  USAGE: "Bad usage or input; nothing was changed",
  NOT_FOUND: "No such pane, session, project or task",
  DAEMON: "skiffd could not be reached or started",
  CONFLICT: "The request conflicts with the current state",
  DATA: "A file is corrupt, foreign, locked or read-only; it was left untouched",
  TIMEOUT: "The wait ran out of time",
  NO_TURN: "The text went in, but no turn started: the pane needs the person",
  NOT_RUNNING: "The pane's process has exited",
  NO_AGENT: "No known agent is in front of the pane",
  WORKING: "The agent is working",
  APPROVAL: "An approval dialog or question shows",
  DRAFT: "The input box holds a draft, or does not show",
  TYPING: "A person typed into the pane after the check",
  NOT_DELIVERED: "The typed text did not show up in the input box",
  UNREACHABLE: "The host cannot be reached over SSH, or its link was lost",
  PROTOCOL: "This skiff and skiffd speak different protocol versions",
  MERGE_CONFLICT: "The branch does not apply on its base: the files conflict; nothing was changed",
  CHECK_FAILED: "The project's check failed or ran too long; nothing was changed",
  PUSH_FAILED: "git could not push the branch; nothing was changed",
  PR_FAILED: "The branch was pushed (it stays), but no pull request was opened",
};

/** Every command's codes: 0, 1 and 2, then its own, each with its meaning, by code. */
export function exitTable(uses: readonly ExitUse[] = []): [number, string][] {
  const rows = new Map<number, string>([
    [Exit.OK, EXIT_MEANINGS.OK],
    [Exit.ERROR, EXIT_MEANINGS.ERROR],
    [Exit.USAGE, EXIT_MEANINGS.USAGE],
  ]);
  for (const use of uses) {
    const [name, meaning] = typeof use === "string" ? [use, EXIT_MEANINGS[use]] : use;
    rows.set(Exit[name], meaning);
  }
  return [...rows].sort((a, b) => a[0] - b[0]);
}
