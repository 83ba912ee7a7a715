/**
 * Typing a task into an agent, only when it is safe, as `skiff send` and
 * the `send_to_pane` tool do: skiffd's guard decides at the moment of
 * typing.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { withPane } from "../hosts/resolve.ts";
import { MAX_SEND_TEXT_BYTES, type SendResult, sendTextTooLong } from "../protocol/agents.ts";
import { checkScope, type PaneOpOptions } from "./scope.ts";

/** Options for {@linkcode sendToPane}. */
export interface SendToPaneOptions extends PaneOpOptions {
  /** Press Enter and wait for a turn to start. */
  enter?: boolean;
  /** How long to wait for the turn, in ms (default: skiffd's `turn_start_seconds`). */
  timeoutMs?: number;
  /** Allow a program that is not a known agent (no screen checks). */
  any?: boolean;
}

/**
 * Checks `text` before anything is connected or written: not blank, and
 * within skiffd's limit (`USAGE` otherwise).
 */
export function checkSendText(text: string): void {
  if (text.trim() === "") throw new SkiffError("TEXT is empty", { exit: "USAGE" });
  const tooLong = sendTextTooLong(text);
  if (tooLong) {
    throw new SkiffError(tooLong, { exit: "USAGE", details: { limit: MAX_SEND_TEXT_BYTES } });
  }
}

/**
 * Types `text` into the agent in pane `ref` and returns what `skiff send
 * --json` prints. A refusal types nothing and is a `SkiffError` naming why
 * (`WORKING`, `APPROVAL`, `DRAFT`, `TYPING`, `NO_AGENT`, `NOT_RUNNING`, …);
 * `NO_TURN` means the text went in but no turn started.
 */
export async function sendToPane(
  ref: string,
  text: string,
  options: SendToPaneOptions = {},
): Promise<SendResult> {
  checkSendText(text);
  return await withPane(ref, async (client, pane) => {
    await checkScope(client, pane, options.project);
    return await client.call("pane.send", {
      pane,
      text,
      enter: options.enter,
      any: options.any,
      timeout_ms: options.timeoutMs,
    });
  }, { access: options.access });
}
