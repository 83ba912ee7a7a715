/**
 * Reading an agent's screen with its profile: approval first, then busy,
 * then the composer. Rules read only the live bottom rows, never scrollback.
 *
 * @module
 */

import type { ScreenView, ViewRow } from "../screen/view.ts";
import type { AgentProfile, Rule } from "./profiles/mod.ts";

/** How many non-blank rows from the bottom count as live. */
export const LIVE_ROWS = 16;

/** One piece of evidence, for `skiff explain`. */
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
  /** When the agent itself last reported that it is idle (OSC 7501), or undefined. */
  reportedIdleAt?: number;
  /** When the agent itself last reported its state (OSC 7501), whatever it said, or undefined. */
  reportedAt?: number;
  /** Whether a row says the agent is still starting (its profile's `starting` rules). */
  starting: boolean;
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

/** Zero-width characters some agents leave in their input boxes. */
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/g;

function clean(text: string): string {
  return text.replace(ZERO_WIDTH, "").trim();
}

/** Reads a box that ends in a status row: the `line` rows right above it. */
function readStatusBox(
  profile: AgentProfile,
  rows: ViewRow[],
  live: number[],
): ComposerReading | undefined {
  const rule = profile.screen.composer;
  if (!rule.status) return undefined;
  const status = [...live].reverse().find((y) => rule.status!.test(rows[y].text));
  if (status === undefined) return { visible: false, draft: "", text: "", row: -1, endRow: -1 };
  const texts: string[] = [];
  const strongs: string[] = [];
  let top = status;
  for (let y = status - 1; y >= 0; y--) {
    const match = withIndices(rule.line).exec(rows[y].text);
    if (!match) break;
    const [from, to] = match.indices?.[1] ?? [rows[y].text.length, rows[y].text.length];
    texts.unshift(match[1] ?? "");
    strongs.unshift(rows[y].strong.slice(from, to));
    top = y;
  }
  const text = clean(texts.map((t) => t.trim()).filter(Boolean).join("\n"));
  let draft = clean(strongs.map((t) => t.trim()).filter(Boolean).join("\n"));
  for (const placeholder of rule.placeholders ?? []) if (placeholder.test(text)) draft = "";
  return { visible: true, draft, text, row: top, endRow: status };
}

/** Finds the composer in the live rows, the lowest one when several match. */
export function readComposer(
  profile: AgentProfile,
  rows: ViewRow[],
  live: number[],
): ComposerReading {
  const rule = profile.screen.composer;
  const boxed = readStatusBox(profile, rows, live);
  if (boxed) return boxed;
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
    let draft = clean(strong);
    for (const placeholder of rule.placeholders ?? []) {
      if (placeholder.test(clean(text))) draft = "";
    }
    return { visible: true, draft, text: clean(text), row: y, endRow: end };
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
  const status = profile.statusApp && view.status?.app === profile.statusApp
    ? view.status
    : undefined;
  if (status) {
    const says = status.state === "blocked"
      ? "waiting"
      : status.state === "working"
      ? "working"
      : status.state === "idle" || status.state === "done"
      ? "idle"
      : "info";
    signals.push({
      source: "status",
      rule: `OSC 7501 state=${status.state}${status.kind ? ` kind=${status.kind}` : ""}`,
      says,
    });
  }
  const titleApproval = firstHit(profile.title?.approval, view.title);
  if (titleApproval) {
    signals.push({ source: "title", rule: titleApproval.name, says: "waiting", text: view.title });
  }

  let starting = false;
  for (const text of rows(live)) {
    const rule = firstHit(profile.screen.starting, text);
    if (rule) {
      signals.push({ source: "screen", rule: rule.name, says: "info", text: text.trim() });
      starting = true;
      break;
    }
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
  const reportedIdle = signals.some((s) => s.source === "status" && s.says === "idle");
  const reportedIdleAt = reportedIdle ? status?.at : undefined;
  const verdict = says("waiting")
    ? "waiting"
    : says("working")
    ? "working"
    : composer.visible || reportedIdle
    ? "idle"
    : "unknown";
  return { verdict, composer, signals, reportedIdleAt, reportedAt: status?.at, starting };
}
