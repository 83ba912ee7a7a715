/**
 * Reading an agent's screen with its profile: approval first, then busy,
 * then the composer. Rules read only the live bottom rows, never scrollback.
 *
 * @module
 */

import type { ScreenView, ViewRow } from "../screen/view.ts";
import type { AgentProfile, Rule } from "./profile.ts";

/** How many non-blank rows from the bottom count as live. */
export const LIVE_ROWS = 16;

/** One piece of evidence, for `skiff explain`. */
export interface Signal {
  /** Where it came from. */
  source: "screen" | "title" | "progress" | "hook" | "process" | "input";
  /** The rule or fact. */
  rule: string;
  /** What it says about the state. */
  says: "working" | "waiting" | "idle" | "draft" | "info";
  /** The text that matched, when there is one. */
  text?: string;
}

/** The composer as read from the screen. */
export interface ComposerReading {
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

/** What the screen and title say. */
export interface ScreenReading {
  /** The verdict. `unknown` means no rule matched. */
  verdict: "waiting" | "working" | "idle" | "unknown";
  /** The composer. */
  composer: ComposerReading;
  /** Every rule that fired. */
  signals: Signal[];
}

/** Returns the indices of the live rows: the last {@linkcode LIVE_ROWS} non-blank rows. */
export function liveRows(rows: ViewRow[]): number[] {
  const live: number[] = [];
  for (let y = rows.length - 1; y >= 0 && live.length < LIVE_ROWS; y--) {
    if (rows[y].text.trim() !== "") live.unshift(y);
  }
  return live;
}

const indexed = new WeakMap<RegExp, RegExp>();

/** The same pattern with match indices (`d` flag), cached. */
function withIndices(pattern: RegExp): RegExp {
  let copy = indexed.get(pattern);
  if (!copy) {
    copy = new RegExp(
      pattern.source,
      pattern.flags.replace("g", "") + (pattern.hasIndices ? "" : "d"),
    );
    indexed.set(pattern, copy);
  }
  return copy;
}

function firstHit(rules: Rule[] | undefined, text: string): Rule | undefined {
  return rules?.find((rule) => rule.pattern.test(text));
}

/** Finds the composer in the live rows, the lowest one when several match. */
export function readComposer(
  profile: AgentProfile,
  rows: ViewRow[],
  live: number[],
): ComposerReading {
  const rule = profile.screen.composer;
  const none = { visible: false, draft: "", text: "", row: -1, endRow: -1 };
  const first = live.length ? live[0] : rows.length;
  for (let i = live.length - 1; i >= 0; i--) {
    const y = live[i];
    const match = withIndices(rule.line).exec(rows[y].text);
    if (!match) continue;
    if (rule.frame) {
      let above = y - 1;
      while (above >= first && rows[above].text.trim() === "") above--;
      if (above < first - 1 || above < 0 || !rule.frame.test(rows[above].text)) continue;
    }
    const [from, to] = match.indices?.[1] ?? [rows[y].text.length, rows[y].text.length];
    let text = match[1] ?? "";
    let strong = rows[y].strong.slice(from, to);
    let end = y;
    if (rule.continuation) {
      for (let next = y + 1; next < rows.length; next++) {
        const row = rows[next];
        if (rule.frame?.test(row.text) || !rule.continuation.test(row.text)) break;
        text += "\n" + row.text.trim();
        strong += "\n" + row.strong.trim();
        end = next;
      }
    }
    let draft = strong.trim();
    for (const placeholder of rule.placeholders ?? []) {
      if (placeholder.test(text.trim())) draft = "";
    }
    return { visible: true, draft, text: text.trim(), row: y, endRow: end };
  }
  return none;
}

/** Reads a screen with a profile's rules. */
export function readScreen(profile: AgentProfile, view: ScreenView): ScreenReading {
  const signals: Signal[] = [];
  const live = liveRows(view.rows);
  const composer = readComposer(profile, view.rows, live);
  const rows = (ys: number[]) => ys.map((y) => view.rows[y].text);

  // Only rows below the composer can hold a dialog; rows above it are transcript.
  const dialogRows = composer.visible ? live.filter((y) => y > composer.endRow) : live;
  for (const text of rows(dialogRows)) {
    const rule = firstHit(profile.screen.approval, text);
    if (rule) {
      signals.push({ source: "screen", rule: rule.name, says: "waiting", text: text.trim() });
      break;
    }
  }
  const titleApproval = firstHit(profile.title?.approval, view.title);
  if (titleApproval) {
    signals.push({ source: "title", rule: titleApproval.name, says: "waiting", text: view.title });
  }

  for (const text of rows(live)) {
    if (profile.screen.notBusy?.some((p) => p.test(text))) continue;
    const rule = firstHit(profile.screen.busy, text);
    if (rule) {
      signals.push({ source: "screen", rule: rule.name, says: "working", text: text.trim() });
      break;
    }
  }
  const titleBusy = firstHit(profile.title?.busy, view.title);
  if (titleBusy) {
    signals.push({ source: "title", rule: titleBusy.name, says: "working", text: view.title });
  }
  if (profile.progress && (view.progress === 1 || view.progress === 3)) {
    signals.push({ source: "progress", rule: `OSC 9;4 state ${view.progress}`, says: "working" });
  }

  if (composer.visible) {
    signals.push({
      source: "screen",
      rule: "input box",
      says: composer.draft ? "draft" : "idle",
      text: composer.text,
    });
  }
  const titleIdle = firstHit(profile.title?.idle, view.title);
  if (titleIdle) {
    signals.push({ source: "title", rule: titleIdle.name, says: "idle", text: view.title });
  }

  const says = (state: Signal["says"]) => signals.some((s) => s.says === state);
  const verdict = says("waiting")
    ? "waiting"
    : says("working")
    ? "working"
    : composer.visible
    ? "idle"
    : "unknown";
  return { verdict, composer, signals };
}
