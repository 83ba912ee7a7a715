/**
 * Replays a timed agent session (`tests/fixtures/screens/<agent>/session*.jsonl`,
 * written by `capture_screens.ts`) through a real {@linkcode Screen} and an
 * {@linkcode AgentTracker} on a fake clock: each output chunk lands at its
 * recorded time, Enter marks a submitted prompt, and the tracker is read when
 * skiffd's pane watch would read it (on output, at most every 50 ms, and when
 * the tracker asks for a look at a later time).
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { Screen } from "../../lib/screen/screen.ts";
import type { ScreenView } from "../../lib/screen/view.ts";
import { AgentRegistry } from "../../lib/agents/registry.ts";
import { AgentTracker, type TrackerEvent } from "../../lib/agents/tracker.ts";
import type { ScreenReading } from "../../lib/agents/rules.ts";

/** The first line of a session file. */
export interface SessionMeta {
  /** The agent's id. */
  agent: string;
  /** The agent's version. */
  version: string;
  /** The pane's size. */
  cols: number;
  rows: number;
  /** The agent's process, as seen in front of the pane. */
  foreground: { comm: string; argv: string[] };
  /** How many turns the session holds. */
  turns: number;
}

/** One timed entry: output (`out`), typed text (`type`) or a tmux key name (`key`). */
export interface SessionEntry {
  /** Milliseconds since the session began. */
  t: number;
  /** Bytes the pane's programs wrote. */
  out?: Uint8Array;
  /** Text typed into the pane. */
  type?: string;
  /** A tmux key name sent to the pane, such as `Enter`. */
  key?: string;
}

/** A recorded session. */
export interface Session {
  /** Its file's name. */
  name: string;
  /** What was recorded. */
  meta: SessionMeta;
  /** Every entry, in time order. */
  entries: SessionEntry[];
}

/** The folder of the captured agent fixtures. */
export const SCREENS = new URL("../fixtures/screens/", import.meta.url);

/** Reads `<agent>/<name>` from the fixtures. */
export async function loadSession(agent: string, name = "session.jsonl"): Promise<Session> {
  const text = await Deno.readTextFile(new URL(`${agent}/${name}`, SCREENS));
  const [head, ...rest] = text.split("\n").filter(Boolean).map((line) => JSON.parse(line));
  const entries = rest.map((e: { t_ms: number; out?: string; type?: string; key?: string }) => ({
    t: e.t_ms,
    out: e.out === undefined ? undefined : new Uint8Array(Buffer.from(e.out, "base64")),
    type: e.type,
    key: e.key,
  }));
  return { name, meta: head.meta, entries };
}

/** The session files of an agent's fixture folder, by name. */
export function sessionFiles(agent: string): string[] {
  const names: string[] = [];
  for (const entry of Deno.readDirSync(new URL(`${agent}/`, SCREENS))) {
    if (/^session.*\.jsonl$/.test(entry.name)) names.push(entry.name);
  }
  return names.sort();
}

/** The agent folders under the fixtures: one per agent with captured screens. */
export function fixtureAgents(): string[] {
  const agents: string[] = [];
  for (const entry of Deno.readDirSync(SCREENS)) if (entry.isDirectory) agents.push(entry.name);
  return agents.sort();
}

/** An event the tracker raised, with the fake time it was raised at. */
export interface ReplayEvent extends TrackerEvent {
  /** Milliseconds since the session began. */
  t: number;
}

/** What a replay saw. */
export interface ReplayResult {
  /** Every tracker event, in order. */
  events: ReplayEvent[];
  /** The last reading of the screen. */
  reading: ScreenReading | undefined;
  /** The tracker, as the session left it. */
  tracker: AgentTracker;
  /** The screen, as the session left it. */
  screen: Screen;
}

/** The shortest gap between two readings, as in skiffd's pane watch. */
const EVALUATE_EVERY_MS = 50;

/** Options for {@linkcode replaySession}. */
export interface ReplayOptions {
  /** The registry to look agents up in (default: the built-ins). */
  registry?: AgentRegistry;
  /** Milliseconds of quiet to play after the last entry (default 5000). */
  tailMs?: number;
}

/** Plays `session` through a screen and a tracker on a fake clock. */
export function replaySession(session: Session, options: ReplayOptions = {}): ReplayResult {
  const registry = options.registry ?? new AgentRegistry();
  const screen = new Screen(session.meta.cols, session.meta.rows, {
    scrollback: 100,
    respond: () => {},
  });
  const tracker = new AgentTracker(() => registry);
  const events: ReplayEvent[] = [];
  const start = 1_000_000_000_000;
  let launched = false;
  let statusAt = start;
  let lastAt = -Infinity;
  let readAt: number | undefined;
  let dueAt: number | undefined;

  const view = (): ScreenView => {
    const v = screen.view();
    // The screen stamps status reports with the wall clock; use the fake one.
    return v.status ? { ...v, status: { ...v.status, at: statusAt } } : v;
  };
  const evaluate = (t: number) => {
    readAt = undefined;
    lastAt = t;
    const raised = tracker.update({
      now: start + t,
      view,
      foreground: launched
        ? { pid: 2, ...session.meta.foreground }
        : { pid: 1, comm: "bash", argv: ["bash"] },
      running: true,
    });
    for (const event of raised) events.push({ t, ...event });
    const due = tracker.nextCheckAt();
    dueAt = due === undefined ? undefined : t + Math.max(10, due - (start + t) + 5);
  };
  const schedule = (t: number) => {
    readAt ??= Math.max(t, lastAt + EVALUATE_EVERY_MS);
  };
  // Runs every reading due before `t`.
  const runUntil = (t: number) => {
    for (;;) {
      const next = Math.min(readAt ?? Infinity, dueAt ?? Infinity);
      if (next > t) return;
      evaluate(next);
    }
  };

  for (const entry of session.entries) {
    runUntil(entry.t);
    if (entry.out) {
      if (new TextDecoder().decode(entry.out).includes("\x1b]7501;")) statusAt = start + entry.t;
      screen.writeSync(entry.out);
    } else if (entry.key === "Enter" || entry.type?.includes("\r")) {
      // The first Enter runs the agent's command line at the shell prompt.
      if (!launched) launched = true;
      else tracker.submitted(start + entry.t);
    }
    schedule(entry.t);
  }
  const end = (session.entries.at(-1)?.t ?? 0) + (options.tailMs ?? 5000);
  runUntil(end);
  return { events, reading: tracker.reading, tracker, screen };
}
