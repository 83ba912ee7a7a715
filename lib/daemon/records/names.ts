/**
 * The rules of pane and session names: what a name may be, and how a free
 * one is made from a program's or a pane's name.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";

/** The pattern a pane or session name must match. */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Throws exit `USAGE` when `name` is not a valid name for a `kind` ("pane", "session"). */
export function checkName(name: string, kind: string): void {
  // An id-like name (p3, s1) would make a reference mean two things.
  if (!NAME_PATTERN.test(name) || /^[ps]\d+$/.test(name)) {
    throw new SkiffError(
      `Bad ${kind} name '${name}': use 1 to 64 letters, digits, '.', '_' and '-', starting ` +
        "with a letter or digit, and not an id like p1",
      { exit: "USAGE" },
    );
  }
}

/**
 * A valid name made from `base` for which `taken` is false: `base` cleaned
 * up, else with `-2`, `-3`, … after it.
 */
export function uniqueName(base: string, taken: (name: string) => boolean): string {
  let stem = base.replace(/[^A-Za-z0-9._-]/g, "-").replace(/^[^A-Za-z0-9]+/, "");
  if (stem === "" || /^[ps]\d+$/.test(stem)) stem = `pane-${stem}`;
  // Room for a "-NNNNNNN" suffix within the 64 characters a name may have.
  stem = stem.slice(0, 56);
  if (!taken(stem)) return stem;
  for (let n = 2;; n++) {
    if (!taken(`${stem}-${n}`)) return `${stem}-${n}`;
  }
}
