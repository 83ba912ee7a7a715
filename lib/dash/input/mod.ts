/**
 * Keys from the terminal: bytes parsed into named keys and text, and the
 * loop that hands them over one at a time.
 *
 * @module
 */

export { readKeys } from "./key_reader.ts";
export { type Key } from "./keys.ts";
