/**
 * Drives an {@linkcode AgentTracker} on a fake clock with made-up screens, as
 * skiffd's pane watch would: a look whenever the screen changes, and a look
 * at each time the tracker asks for (`nextCheckAt`).
 *
 * @module
 */

import type { AgentProfile } from "../../lib/agents/profiles/profile.ts";
import type { AgentRegistry } from "../../lib/agents/registry.ts";
import { AgentTracker, type HookReport } from "../../lib/agents/tracker.ts";
import type { HookState } from "../../lib/protocol/agents.ts";
import type { ForegroundProcess } from "../../lib/platform/proc.ts";
import type { AgentStatusReport, ScreenView } from "../../lib/screen/view.ts";

/** A small agent: a `>` input box, `esc to interrupt` while busy, `Allow?` dialogs. */
export const TOY: AgentProfile = {
  id: "toy",
  label: "Toy",
  command: "toy",
  continueArgs: null,
  match: { comm: ["toy"] },
  enterDelayMs: 150,
  screen: {
    busy: [{ name: "busy line", pattern: /\besc to interrupt\b/ }],
    approval: [{ name: "allow question", pattern: /^Allow\?/ }],
    composer: { line: /^> ?(.*)$/ },
  },
  hooks: { kind: "none", events: { Start: "working", Stop: "idle", Ask: "waiting" } },
};

/** The toy agent, reporting its own state (OSC 7501, `app=toy`) as Codex does. */
export const REPORTING_TOY: AgentProfile = { ...TOY, statusApp: "toy" };

/** Screens of the toy agent, as rows of text. */
export const SCREENS = {
  idle: ["Toy 1.0", "", "> "],
  busy: ["Toy 1.0", "✶ Thinking… (esc to interrupt)", "> "],
  approval: ["Toy 1.0", "Allow? 1. Yes  2. No"],
  loading: ["Toy 1.0", "loading…"],
} as const;

/** The toy agent's process in front of the pane. */
export const TOY_PROCESS: ForegroundProcess = { pid: 42, comm: "toy", argv: ["toy"] };

/** A tracker on a fake clock; a shell is in front until {@linkcode TrackerHarness.front}. */
export class TrackerHarness {
  /** The fake clock (ms since the epoch). */
  now = 1_000_000;
  /** The tracker under test. */
  readonly tracker: AgentTracker;
  /** Every event raised so far, with the fake time. */
  readonly events: { at: number; event: string }[] = [];
  #view: ScreenView = screenView(SCREENS.idle);
  #status: AgentStatusReport | undefined;
  #foreground: ForegroundProcess | undefined;
  #running = true;
  #nextLookAt: number | undefined;
  readonly #profile: AgentProfile;

  readonly #hooked: boolean;

  /** With `hooked`, Skiff started the agent with its hooks wired in. */
  constructor(options: { profile?: AgentProfile; noTurnMs?: number; hooked?: boolean } = {}) {
    const profile = options.profile ?? TOY;
    this.#profile = profile;
    this.#hooked = options.hooked ?? false;
    const registry = {
      identify: (p: ForegroundProcess | undefined) => p?.comm === profile.id ? profile : undefined,
      get: (id: string) => id === profile.id ? profile : undefined,
    } as unknown as AgentRegistry;
    this.tracker = new AgentTracker(() => registry, {
      noTurnMs: () => options.noTurnMs ?? 5000,
    });
  }

  /** Shows a screen and looks at once; returns the events raised. */
  show(rows: readonly string[], extra: Partial<ScreenView> = {}): string[] {
    this.#view = screenView(rows, extra);
    return this.look();
  }

  /** Shows a whole screen (a captured one, say) and looks at once; returns the events raised. */
  showView(view: ScreenView): string[] {
    this.#view = view;
    return this.look();
  }

  /** Sets what runs in front (undefined: a shell). */
  front(process: ForegroundProcess | undefined): string[] {
    this.#foreground = process;
    return this.look();
  }

  /** The pane's process exits. */
  exit(): string[] {
    this.#running = false;
    return this.look();
  }

  /** Enter went in. */
  submit(): string[] {
    this.tracker.submitted(this.now);
    return this.look();
  }

  /** A hook reports `event` meaning `state`. */
  hook(event: string, state: HookState): string[] {
    const report: HookReport = { agent: this.#profile.id, event, state, at: this.now };
    this.tracker.hookReport(report);
    return this.look();
  }

  /** A hook event heard only for the conversation's id (such as SessionStart) comes. */
  heard(event: string): string[] {
    this.tracker.heard(event, this.now);
    return this.look();
  }

  /** The agent reports its own state (OSC 7501); the screen keeps the last report. */
  status(state: string): string[] {
    this.#status = { state, app: "toy", at: this.now };
    return this.look();
  }

  /** Looks now, as the pane watch does after output; returns the events raised. */
  look(): string[] {
    const raised = this.tracker.update({
      now: this.now,
      view: () => this.#status ? { ...this.#view, status: this.#status } : this.#view,
      foreground: this.#running ? this.#foreground : undefined,
      running: this.#running,
      hooked: this.#hooked ? this.#profile.id : undefined,
    });
    for (const { event } of raised) this.events.push({ at: this.now, event });
    const due = this.tracker.nextCheckAt();
    // As the pane watch's timer: a little after the time asked for, never sooner than 10 ms.
    this.#nextLookAt = due === undefined ? undefined : this.now + Math.max(10, due - this.now + 5);
    return raised.map((e) => e.event);
  }

  /** Lets `ms` pass, looking whenever the tracker asked to; returns the events raised. */
  advance(ms: number): string[] {
    const until = this.now + ms;
    const raised: string[] = [];
    while (this.#nextLookAt !== undefined && this.#nextLookAt <= until) {
      this.now = this.#nextLookAt;
      raised.push(...this.look());
    }
    this.now = until;
    return raised;
  }
}

/** A made-up screen: rows of plain text, no faint cells. */
export function screenView(rows: readonly string[], extra: Partial<ScreenView> = {}): ScreenView {
  return {
    rows: rows.map((text) => ({ text, strong: text })),
    title: "",
    bracketedPaste: true,
    cursorY: rows.length - 1,
    ...extra,
  };
}
