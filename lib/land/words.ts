/**
 * The words a landing writes: the message of the commit `--commit` makes,
 * of a squash and of a merge commit, and the title and body of a pull
 * request, from the ledger tasks sent on the branch (or, without any, from
 * the worktree's name).
 *
 * @module
 */

import type { LandedTask } from "../protocol/land.ts";

/** A subject line is cut to this many characters, as git's own tools keep them short. */
const SUBJECT_MAX = 72;

/** The first line of a task's text, trimmed and cut to a subject's length. */
export function subjectOf(text: string): string {
  const line = text.trim().split(/\r?\n/)[0].trim();
  const chars = [...line];
  return chars.length <= SUBJECT_MAX ? line : chars.slice(0, SUBJECT_MAX - 1).join("") + "…";
}

/** What the words are about: the worktree and its tasks. */
export interface WordsInput {
  /** The worktree's name. */
  name: string;
  /** Its branch. */
  branch: string;
  /** The ledger tasks sent on the branch, oldest first. */
  tasks: readonly LandedTask[];
}

/** The lines that list the tasks, one each: `- TEXT (task UID)`. */
function taskLines(tasks: readonly LandedTask[]): string[] {
  return tasks.map((t) => `- ${t.task} (task ${t.uid})`);
}

/** The subject of what lands: its one task, or the worktree with how many tasks. */
export function landingSubject(input: WordsInput): string {
  if (input.tasks.length === 1) return subjectOf(input.tasks[0].task);
  if (input.tasks.length > 1) {
    return subjectOf(`${input.tasks.length} tasks from worktree ${input.name} (${input.branch})`);
  }
  return subjectOf(`Work from worktree ${input.name} (${input.branch})`);
}

/** The message of the commit `--commit` makes of a worktree's uncommitted work. */
export function commitMessage(input: WordsInput): string {
  const subject = landingSubject(input);
  if (input.tasks.length <= 1) {
    const by = input.tasks.length === 1 ? `\n\nSkiff task ${input.tasks[0].uid}.` : "";
    return `${subject}${by}\n`;
  }
  return `${subject}\n\n${taskLines(input.tasks).join("\n")}\n`;
}

/** The message of a squash commit: the subject, the tasks, then the subjects of the commits. */
export function squashMessage(input: WordsInput, subjects: readonly string[]): string {
  const lines = [landingSubject(input), ""];
  if (input.tasks.length > 0) lines.push(...taskLines(input.tasks), "");
  lines.push(`Squashed from ${input.branch}:`, ...subjects.map((s) => `* ${s}`));
  return lines.join("\n") + "\n";
}

/** The message of a merge commit, as `git merge` words it, with the tasks under it. */
export function mergeMessage(input: WordsInput, base: string): string {
  const lines = [`Merge branch '${input.branch}' into ${base}`];
  if (input.tasks.length > 0) lines.push("", ...taskLines(input.tasks));
  return lines.join("\n") + "\n";
}

/** The title and body of a pull request: the subject, the tasks, the commits and the diffstat. */
export function pullRequestText(
  input: WordsInput,
  subjects: readonly string[],
  diffstat: string,
): { title: string; body: string } {
  const body: string[] = [];
  if (input.tasks.length > 0) body.push("Tasks:", "", ...taskLines(input.tasks), "");
  body.push("Commits:", "", ...subjects.map((s) => `- ${s}`), "");
  if (diffstat.trim() !== "") body.push("```", diffstat.trimEnd(), "```", "");
  body.push(`Opened by Skiff from worktree ${input.name} (${input.branch}).`);
  return { title: landingSubject(input), body: body.join("\n") + "\n" };
}
