/**
 * Words that messages in every room share.
 *
 * @module
 */

/** `N things`: the word with an `s` when N is not 1 (`1 file`, `2 files`, `0 files`). */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Bytes for people: `900 KB`, `1.3 MB`. */
export function byteSize(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${Math.ceil(bytes / 1024)} KB`
    : `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MB`;
}
