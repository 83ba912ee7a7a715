/**
 * Result paths: where a task's result file goes when the caller names none.
 *
 * | row               | path                                              |
 * |-------------------|---------------------------------------------------|
 * | task with no plan | `results/<date>-<uid>-<slug>.md`                  |
 * | plan              | `results/<date>-<uid>-<slug>/plan.md`             |
 * | task in a plan    | `<uid>-<slug>.md` in the folder of the plan's path |
 *
 * A computed path is stored relative to the ledger's folder, so it stays right
 * when the whole folder moves. A path the caller gives is stored absolute.
 * Every path the API hands back is absolute.
 *
 * @module
 */

import { dirname, isAbsolute, join, resolve } from "../platform/path.ts";

/** The longest slug, in characters. */
export const SLUG_MAX = 40;

/** The slug used when the task text has no ASCII letters or digits. */
export const EMPTY_SLUG = "task";

/**
 * Letters that NFKD does not split into an ASCII base letter and a mark.
 * Without this table they would vanish from the slug ("straße" → "strae").
 */
const EXTRA_LETTERS: Record<string, string> = {
  "ß": "ss",
  "æ": "ae",
  "œ": "oe",
  "ø": "o",
  "đ": "d",
  "ð": "d",
  "ł": "l",
  "þ": "th",
  "ı": "i",
};

/**
 * Makes the slug of a task text: lowercase ASCII words joined by `-`, at most
 * {@linkcode SLUG_MAX} characters.
 *
 * Accents are split off with NFKD and dropped, so "Café" gives `cafe` and
 * "ﬁle" gives `file`; a few letters that NFKD leaves whole are spelled out
 * (`ß` → `ss`, `æ` → `ae`, `ø` → `o`, …). A word is a run of `a-z` and `0-9`;
 * every other character, other non-ASCII ones (such as emoji or CJK) too,
 * separates words, so "ship🚀now" gives `ship-now`. A slug longer than the
 * limit is cut after the last whole word that fits; when even the first word
 * is too long, it is cut at the limit. An empty slug becomes `task`.
 *
 * @example Usage
 * ```ts
 * slugify("Café déjà vu!"); // "cafe-deja-vu"
 * ```
 */
export function slugify(text: string): string {
  const lower = text.toLowerCase().replace(/[ßæœøđðłþı]/g, (c) => EXTRA_LETTERS[c] ?? "");
  const bare = lower.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  const words = bare.match(/[a-z0-9]+/g) ?? [];
  let slug = "";
  for (const word of words) {
    const next = slug === "" ? word : `${slug}-${word}`;
    if (next.length > SLUG_MAX) {
      if (slug === "") slug = word.slice(0, SLUG_MAX);
      break;
    }
    slug = next;
  }
  return slug === "" ? EMPTY_SLUG : slug;
}

/** Formats a date as `YYYY-MM-DD` in the local time zone. */
export function localDate(date: Date): string {
  const y = String(date.getFullYear()).padStart(4, "0");
  const m = String(date.getMonth() + 1).padStart(2, "0");
  const d = String(date.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

/** What {@linkcode resultPathFor} needs to know about the new row. */
export interface ResultPathInput {
  /** The new row's uid. */
  uid: string;
  /** The task text, for the slug. */
  task: string;
  /** Whether the row is a plan (it has no pane). */
  plan: boolean;
  /** The stored result path of the row's plan, if the row is in one. */
  parentResult?: string | null;
  /** The moment that gives the date. */
  now: Date;
}

/**
 * Computes the stored result path of a new row, as the table in this module
 * shows. The path is relative to the ledger's folder unless it sits in a plan
 * whose own path is absolute. A task in a plan goes into the folder that holds
 * the plan's path (for a computed plan path, the plan's own folder).
 */
export function resultPathFor(input: ResultPathInput): string {
  const stem = `${input.uid}-${slugify(input.task)}`;
  if (input.parentResult) return join(dirname(input.parentResult), `${stem}.md`);
  const dated = `${localDate(input.now)}-${stem}`;
  if (input.plan) return join("results", dated, "plan.md");
  return join("results", `${dated}.md`);
}

/** Turns a stored result path into an absolute one. */
export function absoluteResult(stored: string, ledgerDir: string): string {
  return isAbsolute(stored) ? stored : resolve(ledgerDir, stored);
}

/**
 * Turns a result path that a caller gives into the stored form: absolute,
 * resolved against `cwd` when it is relative.
 */
export function storedCallerResult(given: string, cwd: string): string {
  return resolve(cwd, given);
}
