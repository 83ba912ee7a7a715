/**
 * Answers to the terminal queries programs send at start-up (which terminal
 * this is, its colours, its capabilities): a program that gets no answer may
 * wait for one, so a pane's screen answers the way a real terminal would.
 *
 * @module
 */

import type { Terminal } from "@xterm/headless";
import { paletteColor } from "./palette.ts";
import { VERSION } from "../version.ts";

/** The default foreground (10), background (11) and cursor (12) colours reported. */
const OSC_COLORS: Record<number, string> = {
  10: "rgb:e5e5/e5e5/e5e5",
  11: "rgb:0000/0000/0000",
  12: "rgb:e5e5/e5e5/e5e5",
};

/** Makes `term` answer terminal queries through `respond`, which writes back to the program. */
export function answerQueries(term: Terminal, respond: (answer: string) => void): void {
  const parser = term.parser;
  // XTVERSION: agents ask which terminal they run in.
  parser.registerCsiHandler({ prefix: ">", final: "q" }, () => {
    respond(`\x1bP>|skiff(${VERSION})\x1b\\`);
    return true;
  });
  for (const code of [10, 11, 12]) {
    parser.registerOscHandler(code, (data) => {
      if (data !== "?") return false;
      respond(`\x1b]${code};${OSC_COLORS[code]}\x1b\\`);
      return true;
    });
  }
  parser.registerOscHandler(4, (data) => {
    const parts = data.split(";");
    if (parts.length !== 2 || parts[1] !== "?") return false;
    const index = Number(parts[0]);
    if (!Number.isInteger(index) || index < 0 || index > 255) return false;
    respond(`\x1b]4;${index};${paletteColor(index)}\x1b\\`);
    return true;
  });
  // XTGETTCAP: a clear "not known" so that programs do not wait for an answer.
  parser.registerDcsHandler({ intermediates: "+", final: "q" }, () => {
    respond("\x1bP0+r\x1b\\");
    return true;
  });
}
