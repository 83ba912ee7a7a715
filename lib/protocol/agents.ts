/**
 * The agent methods of the protocol: guarded send, wait, seen, explain and
 * the endpoint of agents' hooks.
 *
 * @module
 */

import type { PaneInfo, PaneRef, PaneState, UnreadReason } from "./panes.ts";
import { byteSize } from "../words.ts";

/** What a hook event means for an agent's state. */
export type HookState = "working" | "waiting" | "idle" | "info";

/** One piece of evidence about a pane's state, for `skiff explain`. */
export interface Signal {
  /** Where it came from. */
  source: "status" | "screen" | "title" | "progress" | "hook" | "process" | "input";
  /** The rule or fact. */
  rule: string;
  /** What it says about the state. */
  says: "working" | "waiting" | "idle" | "draft" | "info";
  /** The text that matched, when there is one. */
  text?: string;
}

/** An agent's input box as read from the screen. */
export interface ComposerInfo {
  /** Whether the input box shows. */
  visible: boolean;
  /** The draft's strong text (placeholders and faint suggestions removed); empty when none. */
  draft: string;
  /** The composer's full text as drawn. */
  text: string;
  /** The composer's first row, or -1. */
  row: number;
  /** The composer's last row, or -1. */
  endRow: number;
}

/** The last hook report of a pane. */
export interface HookInfo {
  /** The agent the hook came from. */
  agent: string;
  /** The hook's event name, such as `Stop`. */
  event: string;
  /** What it means. */
  state: HookState;
  /** When it arrived (ms since the epoch). */
  at: number;
  /** Set when it was kept but counts for nothing: a working hook with no turn the screen shows. */
  ignored?: boolean;
}

/**
 * The longest text `pane.send` types, in bytes of UTF-8. A request line is at
 * most 1 MB (`MAX_LINE_BYTES`) and JSON may write a character as up to six
 * (a newline as two), so a quarter of it leaves room for ordinary text; an
 * agent's input box is not made for more anyway (ledger tasks stop at 32 KB).
 */
export const MAX_SEND_TEXT_BYTES = 256 * 1024;

/**
 * Why `text` is too long for `pane.send`, or `undefined` when it fits: one
 * line that names the limit, the same from the CLI and from skiffd.
 */
export function sendTextTooLong(text: string): string | undefined {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes <= MAX_SEND_TEXT_BYTES) return undefined;
  return `Text is ${byteSize(bytes)}; skiff send takes at most ${
    byteSize(MAX_SEND_TEXT_BYTES)
  }: put the rest in a file and name it in the text`;
}

/** The params of `pane.send`. */
export interface SendParams extends PaneRef {
  /** The text to type. */
  text: string;
  /** Press Enter after the agent's delay and wait for a turn to start. */
  enter?: boolean;
  /** Allow a program that is not a known agent (no screen checks). */
  any?: boolean;
  /** How long to wait for a turn to start, in ms. */
  timeout_ms?: number;
  /** Refuse when the person's keystroke count moved past this (read earlier from `pane.list`). */
  since_inputs?: number;
  /**
   * The watcher's lines that make up `text`, each with the pane it tells
   * about. skiffd remembers them from the moment Enter goes in until that
   * pane is marked seen, and refuses a send with a line it remembers (exit
   * `CONFLICT`, details `{reason: "told", lines}`): a watcher killed mid-wake
   * never gets its line typed twice by the next one.
   */
  tells?: TellLine[];
}

/** A watcher's line and the pane it tells about. */
export interface TellLine {
  /** The pane's id. */
  pane: string;
  /** The line, as typed. */
  line: string;
}

/** What a successful `pane.send` did. */
export interface SendResult {
  /** The pane's id. */
  pane: string;
  /** The pane's name. */
  name: string;
  /** The pane's process generation. */
  generation: number;
  /** The agent in front, or null with `any`. */
  agent: string | null;
  /** Whether the text went in as a bracketed paste. */
  bracketed: boolean;
  /** Whether Enter was pressed. */
  entered: boolean;
  /** Whether a turn started (always false without Enter). */
  turn_started: boolean;
  /** Milliseconds from the check to the end of the send. */
  elapsed_ms: number;
  /** Milliseconds spent waiting on the agent (the Enter delay and the turn start). */
  agent_wait_ms: number;
}

/** The states `pane.wait` can wait for. */
export type WaitState = Exclude<PaneState, never>;

/** What `pane.explain` returns: the pane, and every signal behind its state. */
export interface ExplainResult extends PaneInfo {
  /** The agent's name for people, or null. */
  agent_label: string | null;
  /** Whether a turn is under way. */
  in_turn: boolean;
  /** The input box, when an agent is in front. */
  composer: ComposerInfo | null;
  /** Every signal of the last reading. */
  signals: Signal[];
  /** The last hook report. */
  hook: HookInfo | null;
  /** When a person last typed (ISO 8601), or null. */
  person_typed_at: string | null;
  /** How many inputs a person made. */
  person_inputs: number;
  /** Whether the program enabled bracketed paste. */
  bracketed_paste: boolean;
}

/** The agent methods: name → params and result. */
export interface AgentMethods {
  /** Types a task into an agent, only when it is safe. */
  "pane.send": { params: SendParams; result: SendResult };
  /** Waits until the pane reaches a state. */
  /**
   * Waits until the agent in a pane is idle at its input box: exit 7 when
   * `timeout_ms` passes first, 10 when the pane's process exits.
   */
  "pane.ready": { params: PaneRef & { timeout_ms?: number }; result: PaneInfo };
  "pane.wait": {
    params: PaneRef & { until: WaitState; timeout_ms?: number };
    result: { pane: string; name: string; state: PaneState; waited_ms: number };
  };
  /** Clears the pane's unread flag. */
  "pane.seen": {
    params: PaneRef;
    result: {
      pane: string;
      name: string;
      was_unread: boolean;
      unread: false;
      /** Why it was unread. */
      reasons: UnreadReason[];
    };
  };
  /** Says which agent is in front and which rules fired. */
  "pane.explain": { params: PaneRef; result: ExplainResult };
  /** Reports an agent hook event. */
  "pane.hook": {
    params: PaneRef & {
      agent: string;
      event: string;
      payload?: Record<string, unknown>;
      session?: string;
    };
    result: {
      pane: string;
      agent: string;
      event: string;
      state: HookState;
      session: string | null;
    };
  };
}
