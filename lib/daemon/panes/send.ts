/**
 * Guarded input: types a task into an agent only while it is safe, and
 * proves that the text arrived and that a turn started.
 *
 * The checks run in skiffd at the moment of typing. While the text goes in
 * and during the Enter delay, a person's keys wait, and go in after Enter.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";
import type { SendResult } from "../../protocol/agents.ts";
import type { Pane } from "./pane.ts";
import type { PaneWatch } from "./pane_watch.ts";

/** How recently a person may have typed before a send is refused. */
export const TYPING_QUIET_MS = 1500;
/** How long the typed text has to show up in the input box. */
export const LAND_TIMEOUT_MS = 4000;
/** How long a send waits for an agent's input box to show before it refuses for it. */
export const REDRAW_WAIT_MS = 1000;
/** The Enter delay for a program that is not a known agent. */
const PLAIN_ENTER_DELAY_MS = 150;

/** What to send. */
export interface SendRequest {
  /** The text. */
  text: string;
  /** Press Enter after it. */
  enter: boolean;
  /** Allow a program that is not a known agent (no screen checks). */
  any: boolean;
  /** How long to wait for a turn to start after Enter. */
  turnTimeoutMs: number;
  /** Refuse if a person's input count moved past this (from an earlier check). */
  sinceInputs?: number;
  /** Called as Enter goes in, while no other send can start on the pane. */
  submitted?: () => void;
}

function refuse(pane: Pane, exit: SkiffError["exit"], reason: string, code: string): SkiffError {
  return new SkiffError(`Pane '${pane.name}': ${reason}`, {
    exit,
    details: { pane: pane.id, reason: code },
  });
}

function normalise(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Whether the composer now shows `text` (or a collapsed paste of it). */
export function landed(text: string, draft: string): boolean {
  const got = normalise(draft);
  if (got === "") return false;
  if (/\[Pasted (text|Content|~)/i.test(got)) return true;
  // Boxes wrap and cut long drafts, so look for the start of the first line,
  // or, when the box scrolled, for the end of the last one.
  const lines = text.split("\n").map(normalise).filter((line) => line !== "");
  const first = lines[0] ?? "";
  const last = lines.at(-1) ?? "";
  if (got.includes(first.slice(0, 24))) return true;
  return last.length >= 8 && got.includes(last.slice(-16));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Throws when `pane` cannot be typed into at all: it exited, or another send types. */
function checkFree(pane: Pane): void {
  if (pane.status !== "running") {
    throw refuse(pane, "NOT_RUNNING", "its process has exited", "not_running");
  }
  if (pane.held) throw refuse(pane, "TYPING", "another send is typing into it", "busy_sending");
}

/**
 * Why the agent in front of `pane` cannot take text now (an approval shows,
 * it works, its input box does not show or holds a draft), or `undefined`.
 */
function agentRefusal(pane: Pane, watch: PaneWatch): SkiffError | undefined {
  const tracker = watch.tracker;
  const profile = tracker.agent;
  if (!profile) return undefined;
  const reading = tracker.reading;
  const state = tracker.state;
  if (state === "waiting" || reading?.verdict === "waiting") {
    return refuse(
      pane,
      "APPROVAL",
      "an approval or question shows; Skiff never types into one",
      "approval",
    );
  }
  if (state === "working" || reading?.verdict === "working") {
    return refuse(pane, "WORKING", `${profile.label} is working`, "working");
  }
  if (!reading?.composer.visible) {
    return refuse(pane, "DRAFT", `the input box of ${profile.label} does not show`, "no_input_box");
  }
  if (reading.composer.draft !== "") {
    return refuse(
      pane,
      "DRAFT",
      `the input box holds a draft: "${reading.composer.draft.slice(0, 40)}"`,
      "draft",
    );
  }
  return undefined;
}

/** Checks, types and submits; throws a {@linkcode SkiffError} naming the refusal. */
export async function guardedSend(
  pane: Pane,
  watch: PaneWatch,
  request: SendRequest,
): Promise<SendResult> {
  const started = performance.now();
  let agentWait = 0;
  checkFree(pane);
  watch.evaluate();
  const tracker = watch.tracker;
  const profile = tracker.agent;
  if (!profile && !request.any) {
    const front = pane.foreground()?.comm ?? "a program";
    throw refuse(
      pane,
      "NO_AGENT",
      `no known agent is in front (${front}); use --any for a plain program`,
      "no_agent",
    );
  }
  if (profile) {
    // An agent redrawing its screen (a resize, a late banner) hides its input box for a
    // moment: wait for one to show before refusing for it, then check everything again.
    const ready = () => agentRefusal(pane, watch)?.details?.reason !== "no_input_box" || undefined;
    if (!ready()) {
      await watch.waitUntil(ready, REDRAW_WAIT_MS);
      // Other requests ran meanwhile: the pane may have exited, another send may type,
      // or the agent may have left the front.
      checkFree(pane);
      if (tracker.agent !== profile) {
        throw refuse(pane, "NO_AGENT", `${profile.label} left the front`, "no_agent");
      }
    }
    const refusal = agentRefusal(pane, watch);
    if (refusal) throw refusal;
  }
  if (request.sinceInputs !== undefined && pane.personInputs > request.sinceInputs) {
    throw refuse(pane, "TYPING", "a person typed in it after the check", "typing");
  }
  if (Date.now() - pane.personTypedAt < TYPING_QUIET_MS) {
    throw refuse(pane, "TYPING", "a person is typing in it", "typing");
  }
  const bracketed = pane.screen.bracketedPaste;
  if (!bracketed && /[\r\n]/.test(request.text)) {
    throw refuse(
      pane,
      "NOT_DELIVERED",
      "it did not enable bracketed paste, so text with line breaks would be submitted line by line",
      "no_bracketed_paste",
    );
  }

  const hold = pane.hold();
  let held = true;
  const release = () => {
    if (held) hold();
    held = false;
  };
  const encoder = new TextEncoder();
  try {
    const body = request.text.replace(/\r\n?/g, "\n");
    pane.write(encoder.encode(bracketed ? `\x1b[200~${body}\x1b[201~` : body));
    if (profile) {
      const ok = await watch.waitUntil(() => {
        const draft = tracker.reading?.composer.draft ?? "";
        return landed(request.text, draft) ? true : undefined;
      }, LAND_TIMEOUT_MS);
      if (!ok) {
        throw refuse(
          pane,
          "NOT_DELIVERED",
          "the text did not show up in the input box; Enter was not pressed",
          "not_delivered",
        );
      }
    }
    if (request.enter) {
      const delay = profile?.enterDelayMs ?? PLAIN_ENTER_DELAY_MS;
      agentWait += delay;
      await sleep(delay);
      if (pane.status !== "running") {
        throw refuse(pane, "NOT_RUNNING", "its process has exited", "not_running");
      }
      // Count turns before Enter: a fast agent may start and end its turn at once.
      const turnsBefore = tracker.turns;
      const submitted = Date.now();
      tracker.submitted(submitted);
      pane.write(encoder.encode("\r"));
      request.submitted?.();
      // Keys a person typed meanwhile go in now, after the Enter.
      release();
      if (!profile) return result(false);
      const turnStart = performance.now();
      const began = await watch.waitUntil(() => {
        const hook = tracker.snapshot().hook;
        if (tracker.turns > turnsBefore) return true;
        if (hook && hook.state === "working" && hook.at >= submitted) return true;
        return undefined;
      }, request.turnTimeoutMs);
      agentWait += performance.now() - turnStart;
      if (!began) {
        throw new SkiffError(
          `Pane '${pane.name}': the text went in, but no turn started within ${
            Math.round(request.turnTimeoutMs / 1000)
          } s; it needs the person`,
          { exit: "NO_TURN", details: { pane: pane.id, reason: "no_turn" } },
        );
      }
      return result(true);
    }
    return result(false);
  } finally {
    release();
  }

  function result(turnStarted: boolean): SendResult {
    return {
      pane: pane.id,
      name: pane.name,
      generation: pane.saved.generation,
      agent: profile?.id ?? null,
      bracketed,
      entered: request.enter,
      turn_started: turnStarted,
      elapsed_ms: Math.round(performance.now() - started),
      agent_wait_ms: Math.round(agentWait),
    };
  }
}
