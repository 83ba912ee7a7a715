/**
 * Words that messages in every room share.
 *
 * @module
 */

/** `N things`: the word with an `s` when N is not 1 (`1 file`, `2 files`, `0 files`). */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
