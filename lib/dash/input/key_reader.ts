/**
 * The dashboard's key loop: bytes from the terminal, parsed into keys and
 * handed over one at a time, each handled before the next is read.
 *
 * @module
 */

import { nextTerminalInput } from "../../client/terminal_input.ts";
import { type Key, parseKeys } from "./keys.ts";

/** The key that throws an uncaught error (`SKIFF_FAULT_DASH_ERROR`, for tests). */
const FAULT_KEY = Deno.env.get("SKIFF_FAULT_DASH_ERROR");

/** Options for {@linkcode readKeys}. */
export interface ReadKeysOptions {
  /** Stops reading. */
  signal: AbortSignal;
  /** Whether the dashboard ended: no key is read or handled after. */
  ended: () => boolean;
  /** Handles one key. */
  key: (key: Key) => Promise<void>;
}

/**
 * Reads keys until the dashboard ends or reading stops. Returns `"gone"`
 * when the terminal went away (a dropped SSH link).
 */
export async function readKeys(options: ReadKeysOptions): Promise<"gone" | undefined> {
  const decoder = new TextDecoder();
  while (!options.ended()) {
    // One reader for the whole process: keys typed as an attach ends are not lost.
    const chunk = await nextTerminalInput({ signal: options.signal });
    if (options.ended() || chunk === undefined) return;
    if (chunk === null) return "gone";
    for (const key of parseKeys(decoder.decode(chunk, { stream: true }))) {
      if (key.name === "char" && key.char === FAULT_KEY) {
        // A fault switch for tests: an error nobody catches, thrown outside any handler.
        setTimeout(() => {
          throw new Error("SKIFF_FAULT_DASH_ERROR: an uncaught error, as asked");
        }, 0);
      }
      await options.key(key);
      if (options.ended()) return;
    }
  }
}
