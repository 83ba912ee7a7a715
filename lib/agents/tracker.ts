/**
 * Follows one pane: which agent is in front, its state and its turns. It
 * combines hooks, the title, progress reports and screen rules, and turns
 * state changes into events (skiffd keeps the unread flag they set, with its
 * reasons).
 *
 * Working wins at once; idle must hold for a moment (or a hook must say the
 * turn ended), because agents flicker between frames.
 *
 * @module
 */

import { type AgentProfile, type PaneState, type QuietCommand, SETTLE_MS } from "./profiles/mod.ts";
import type { AgentRegistry } from "./registry.ts";
import { readScreen, type ScreenReading, type Signal } from "./rules.ts";
import type {
  HookReport,
  TrackerEvent,
  TrackerInput,
  TrackerSnapshot,
  TrackerState,
} from "./tracker_types.ts";
import { agentSignals, processSignals, startWaitSignal } from "./tracker_signals.ts";

// skiffd's modules take these shapes from here, beside the tracker.
export type * from "./tracker_types.ts";

/** How long after a prompt went in a turn may take to start before `idle-no-turn`, by default. */
export const NO_TURN_MS = 10_000;
/** How long screen evidence of idle must hold to overrule a hook that said working. */
export const HOOK_OVERRULE_MS = 3000;
/**
 * How long after an agent appears its busy signs and its own reports of work
 * count as start-up, not a turn (Codex spins its title while it loads; Gemini
 * CLI spins while it resumes a session), unless a prompt went in or a hook
 * says a turn began.
 */
export const STARTUP_GRACE_MS = 10_000;
/** How long a quiet command holds the agent working when no hook ends it, by default. */
export const QUIET_COMMAND_MS = 5000;
/**
 * How long busy signs must last to count as a turn when nothing else says a
 * turn began (no prompt went in, no hook, no status report). Shorter flashes
 * of a spinner are the agent redrawing, not working.
 */
export const TURN_CONFIRM_MS = 1000;

/** Follows one pane's agent. */
export class AgentTracker {
  readonly #registry: () => AgentRegistry;
  #agent: AgentProfile | undefined;
  #state: PaneState = "shell";
  #inTurn = false;
  #reading: ScreenReading | undefined;
  #hook: HookReport | undefined;
  #rawIdleSince: number | undefined;
  #lastWorkingAt = 0;
  #submittedAt: number | undefined;
  #agentSince = 0;
  #turns = 0;
  #workingSince: number | undefined;
  #signals: Signal[] = [];
  /** A command the agent runs out of sight, from its Enter until the hook that ends it. */
  #quiet: { rule: QuietCommand; since: number } | undefined;
  /** When the hook that ends the agent's start came, if it did. */
  #startHookAt: number | undefined;
  /** When the current agent's screen first read idle (its input box showed), if it has. */
  #firstIdleAt: number | undefined;
  /** Whether Skiff started the agent in front with its hooks wired in. */
  #hooked = false;
  /** While the start waits for the agent's own report: when to look again, else undefined. */
  #awaitUntil: number | undefined;
  readonly #noTurnMs: () => number;

  /** Makes a tracker that looks agents up in the registry `registry()` returns. */
  constructor(
    registry: () => AgentRegistry,
    options: { noTurnMs?: () => number } = {},
  ) {
    this.#registry = registry;
    this.#noTurnMs = options.noTurnMs ?? (() => NO_TURN_MS);
  }

  /** The agent in front. */
  get agent(): AgentProfile | undefined {
    return this.#agent;
  }

  /** The state. */
  get state(): PaneState {
    return this.#state;
  }

  /** How many turns have started since the tracker was made. */
  get turns(): number {
    return this.#turns;
  }

  /** The last screen reading. */
  get reading(): ScreenReading | undefined {
    return this.#reading;
  }

  /**
   * Notes that a prompt was submitted: Enter went in while the agent was idle,
   * or loading (busy signs of start-up can come and go under a prompt).
   */
  submitted(now: number): void {
    if (this.#agent && (this.#state === "idle" || this.#state === "starting")) {
      this.#submittedAt = now;
      // What the input box held as Enter went in: a command the agent runs out of sight?
      const draft = this.#reading?.composer.draft.trim() ?? "";
      const rule = this.#agent.quietCommands?.find((r) => r.pattern.test(draft));
      this.#quiet = rule ? { rule, since: now } : undefined;
    }
  }

  /**
   * Notes a hook event that Skiff hears for the conversation's id only, which
   * says nothing of turns: it may still end a quiet command (Qwen Code's
   * SessionStart ends its `/clear`).
   */
  heard(event: string, at: number): void {
    if (this.#quiet?.rule.until === event && at >= this.#quiet.since) this.#quiet = undefined;
    if (this.#agent?.startHook === event && at >= this.#agentSince) this.#startHookAt ??= at;
  }

  /**
   * Records what a hook said. A `working` or `waiting` report opens a turn
   * only while a turn runs, after a prompt went in, or when the screen does
   * not look idle; else it is kept, marked `ignored`, and counts for nothing
   * (opencode reports `busy` again just after its turn ended).
   */
  hookReport(report: HookReport): void {
    this.heard(report.event, report.at);
    const opens = report.state === "working" || report.state === "waiting";
    const ignored = opens && !this.#inTurn && this.#submittedAt === undefined &&
      this.#reading?.verdict === "idle";
    this.#hook = ignored ? { ...report, ignored } : report;
    if (report.state === "working" && !ignored) this.#lastWorkingAt = report.at;
  }

  /** The last hook report from the agent in front, unless it was ignored. */
  #liveHook(profile: AgentProfile): HookReport | undefined {
    const hook = this.#hook;
    return hook?.agent === profile.id && !hook.ignored ? hook : undefined;
  }

  /** How long idle evidence must hold for the agent in front. */
  #settleMs(): number {
    return this.#agent?.settleMs ?? SETTLE_MS;
  }

  /** When the tracker needs another look even if nothing changes on screen, or undefined. */
  nextCheckAt(): number | undefined {
    const times: number[] = [];
    if (
      this.#rawIdleSince !== undefined && (this.#state === "working" || this.#state === "waiting")
    ) {
      const quietSince = Math.max(this.#rawIdleSince, this.#hook?.at ?? 0);
      times.push(this.#rawIdleSince + this.#settleMs(), quietSince + HOOK_OVERRULE_MS);
    }
    if (this.#submittedAt !== undefined) times.push(this.#submittedAt + this.#noTurnMs());
    if (this.#workingSince !== undefined && !this.#inTurn) {
      times.push(this.#workingSince + TURN_CONFIRM_MS);
    }
    if (this.#quiet) times.push(this.#quiet.since + (this.#quiet.rule.maxMs ?? QUIET_COMMAND_MS));
    // Its screen may not change when the wait ends: look again then.
    if (this.#awaitUntil !== undefined) times.push(this.#awaitUntil);
    return times.length ? Math.min(...times) : undefined;
  }

  /**
   * Starts from a process that had exited before the tracker was made (a
   * pane restored as exited): its exit is old news, so no event tells it.
   */
  exitedBefore(): void {
    this.#state = "exited";
    this.#agent = undefined;
  }

  /** Looks again and returns the events that follow from what changed. */
  update(input: TrackerInput): TrackerEvent[] {
    const events: TrackerEvent[] = [];
    if (!input.running) {
      if (this.#state !== "exited") {
        const agent = this.#agent?.id ?? null;
        this.#state = "exited";
        this.#inTurn = false;
        this.#agent = undefined;
        this.#submittedAt = undefined;
        this.#quiet = undefined;
        events.push({ event: "exit", fields: { what: "process", agent } });
      }
      return events;
    }
    const profile = this.#registry().identify(input.foreground);
    if (profile?.id !== this.#agent?.id) {
      if (this.#agent) {
        events.push({ event: "exit", fields: { what: "agent", agent: this.#agent.id } });
      }
      this.#agent = profile;
      this.#inTurn = false;
      this.#submittedAt = undefined;
      this.#quiet = undefined;
      this.#startHookAt = undefined;
      this.#firstIdleAt = undefined;
      this.#rawIdleSince = undefined;
      this.#hook = undefined;
      this.#agentSince = input.now;
      this.#state = profile ? "starting" : "shell";
      if (profile) events.push({ event: "agent-start", fields: { agent: profile.id } });
    }
    if (!profile) {
      this.#awaitUntil = undefined;
      this.#reading = undefined;
      this.#signals = processSignals(input.foreground);
      return events;
    }
    const reading = readScreen(profile, input.view());
    this.#reading = reading;
    this.#hooked = input.hooked === profile.id;
    const next = this.#decide(profile, reading, input.now);
    const hook = this.#liveHook(profile);
    // While the agent loads, its own reports of work are loading too (Codex
    // reports `working` for a moment after its input box shows).
    const loading = input.now < this.#graceEnds();
    const announced = this.#submittedAt !== undefined ||
      (hook?.state === "working" && hook.at >= this.#agentSince) ||
      (!loading &&
        reading.signals.some((s) =>
          s.source === "status" && s.says !== "idle" && s.says !== "info"
        ));
    // Busy signs that last confirm a turn only if they still show.
    const showing = reading.verdict === "working" || hook?.state === "working";
    return [...events, ...this.#transition(next, input.now, { announced, showing })];
  }

  #decide(profile: AgentProfile, reading: ScreenReading, now: number): PaneState {
    this.#awaitUntil = undefined;
    const next = this.#decideRaw(profile, reading, now);
    const hookWorking = this.#liveHook(profile)?.state === "working";
    // Busy signs with no prompt or hook soon after the agent appeared are it
    // loading, even after its input box showed (Gemini CLI draws its box,
    // then spins while it resumes a session).
    const loading = (this.#state === "starting" || this.#state === "idle") &&
      !this.#inTurn && this.#submittedAt === undefined && now < this.#graceEnds();
    if (next === "working" && !hookWorking && loading) return "starting";
    if (this.#quiet && now - this.#quiet.since >= (this.#quiet.rule.maxMs ?? QUIET_COMMAND_MS)) {
      this.#quiet = undefined;
    }
    if (this.#quiet && next !== "waiting") {
      const { rule } = this.#quiet;
      this.#signals.push({
        source: "input",
        rule: `${rule.name} runs`,
        says: "working",
        text: `${profile.label} runs it under an empty input box until its ${rule.until} hook`,
      });
      if (next === "idle") return "working";
    }
    // Its own notice that it still starts (Codex waiting for another Codex's database).
    if (
      next === "idle" && this.#state === "starting" && reading.starting && !this.#inTurn &&
      this.#submittedAt === undefined
    ) {
      return "starting";
    }
    const until = next === "idle" && this.#state === "starting"
      ? this.#startReportDue(profile, reading, now)
      : undefined;
    if (until !== undefined) {
      this.#awaitUntil = until;
      this.#signals.push(
        startWaitSignal(profile, reading, {
          agentSince: this.#agentSince,
          startHookAt: this.#startHookAt,
        }),
      );
      return "starting";
    }
    return next;
  }

  /**
   * When busy signs with no prompt stop counting as the agent's start: 10 s
   * after it appeared, or after its start hook; for an agent whose start
   * ends with a hook Skiff wired, at least 10 s after its input box showed
   * (on a loaded machine Gemini CLI takes most of 10 s to draw it, and runs
   * that hook after).
   */
  #graceEnds(): number {
    const box = this.#awaitsStartHook() ? this.#firstIdleAt ?? 0 : 0;
    return Math.max(this.#agentSince, this.#startHookAt ?? 0, box) + STARTUP_GRACE_MS;
  }

  /** Whether the agent's start ends with a hook Skiff wired in (its profile's `startHook`). */
  #awaitsStartHook(): boolean {
    return this.#agent?.startHook !== undefined && this.#hooked;
  }

  /**
   * Whether the first idle of an agent that reports its own state (its
   * profile names its status app) still waits for its own report, and until
   * when to look again: Codex draws its input box, then works on its start
   * for a moment (or waits for another Codex's database backfill), and only
   * its own `state=idle` says it is done; and even that one may be followed
   * by work on its start (its MCP servers), so a report of idle must hold
   * for the profile's `startSettleMs`. The wait ends with the start grace,
   * for an agent that never reports; a prompt that went in ends it too.
   *
   * An agent that reports by hooks waits only where its start ends with a
   * hook (its profile's `startHook`) and Skiff wired its hooks in: Gemini CLI
   * runs its SessionStart hook 1–1.5 s after its input box shows, for about
   * 3 s, working meanwhile. Claude Code and Qwen Code are not held: their
   * SessionStart comes 0.3–2.8 s after their input box and holds back no
   * prompt (their input box takes one as soon as it shows; Qwen Code runs it
   * once its start is over), so a send at their first idle never finds them
   * working (see docs/agents.md); and an agent started by hand has no hooks.
   */
  #startReportDue(
    profile: AgentProfile,
    reading: ScreenReading,
    now: number,
  ): number | undefined {
    if (this.#inTurn || this.#submittedAt !== undefined) return undefined;
    const byHook = this.#awaitsStartHook();
    if (!byHook && profile.statusApp === undefined) return undefined;
    const graceEnds = this.#graceEnds();
    if (now >= graceEnds) return undefined;
    // The start's last word, from which its idle must hold `startSettleMs`.
    let since: number;
    if (byHook) {
      if (this.#startHookAt === undefined) return graceEnds;
      // The hook's event comes as it starts to run, and the agent may draw the hook's busy
      // sign only after: idle must hold a moment after the event.
      since = Math.max(this.#startHookAt, this.#rawIdleSince ?? now);
    } else {
      if (reading.reportedAt === undefined || reading.reportedAt < this.#agentSince) {
        return graceEnds;
      }
      since = reading.reportedIdleAt ?? reading.reportedAt;
    }
    const settled = since + (profile.startSettleMs ?? 0);
    return now < settled ? Math.min(settled, graceEnds) : undefined;
  }

  #decideRaw(profile: AgentProfile, reading: ScreenReading, now: number): PaneState {
    const raw = reading.verdict;
    if (raw === "idle") {
      this.#rawIdleSince ??= now;
      this.#firstIdleAt ??= now;
    } else this.#rawIdleSince = undefined;
    if (raw === "working" || raw === "waiting") this.#lastWorkingAt = now;

    const last = this.#hook?.agent === profile.id ? this.#hook : undefined;
    this.#signals = agentSignals(profile, reading, { hook: last });
    const hook = this.#liveHook(profile);

    if (raw === "waiting") return "waiting";
    if (raw === "working") return "working";
    const idleFor = this.#rawIdleSince === undefined ? 0 : now - this.#rawIdleSince;
    if (hook && (hook.state === "working" || hook.state === "waiting")) {
      // A hook can miss an interrupt: a screen that stays idle long enough,
      // counted from the hook, wins.
      const quietFor = raw === "idle" ? now - Math.max(this.#rawIdleSince!, hook.at) : 0;
      if (quietFor < HOOK_OVERRULE_MS) return hook.state;
    }
    if (raw === "unknown") {
      return this.#state === "starting" ? "starting" : this.#state === "idle" ? "idle" : "working";
    }
    // raw is idle from here on.
    if (this.#state !== "working" && this.#state !== "waiting") return "idle";
    const settle = profile.settleMs ?? SETTLE_MS;
    const hookEnded = hook?.state === "idle" && hook.at >= this.#lastWorkingAt - settle;
    // The agent's own idle report counts only if it came after the last sign of work.
    const reportedEnded = (reading.reportedIdleAt ?? 0) > this.#lastWorkingAt;
    if (hookEnded || reportedEnded) return "idle";
    // An agent that reports its own state (OSC 7501) ends its turns itself; its
    // screen can look idle for a moment mid-turn. Only a long quiet overrules it.
    const reports = reading.signals.some((s) => s.source === "status");
    if (idleFor >= (reports ? HOOK_OVERRULE_MS : settle)) return "idle";
    return this.#state;
  }

  #transition(
    next: PaneState,
    now: number,
    busy: { announced: boolean; showing: boolean },
  ): TrackerEvent[] {
    const events: TrackerEvent[] = [];
    const previous = this.#state;
    if (next === "working") this.#workingSince ??= now;
    else this.#workingSince = undefined;
    const confirmed = busy.announced ||
      (busy.showing && this.#workingSince !== undefined &&
        now - this.#workingSince >= TURN_CONFIRM_MS);
    if (next === "working" && !this.#inTurn && confirmed) {
      this.#inTurn = true;
      this.#turns++;
      this.#submittedAt = undefined;
      events.push({ event: "turn-start", fields: {} });
    }
    if (next === "waiting" && previous !== "waiting") {
      if (!this.#inTurn) {
        this.#inTurn = true;
        this.#turns++;
      }
      this.#submittedAt = undefined;
      events.push({ event: "waiting", fields: {} });
    }
    if (next === "idle" && this.#inTurn) {
      this.#inTurn = false;
      events.push({ event: "turn-end", fields: {} });
    }
    if (
      next === "idle" && this.#submittedAt !== undefined &&
      now - this.#submittedAt >= this.#noTurnMs()
    ) {
      this.#submittedAt = undefined;
      events.push({ event: "idle-no-turn", fields: {} });
    }
    this.#state = next;
    return events;
  }

  /** The tracker's picture. */
  snapshot(): TrackerSnapshot {
    return {
      agent: this.#agent?.id ?? null,
      state: this.#state,
      in_turn: this.#inTurn,
      signals: this.#signals,
      composer: this.#reading?.composer ?? null,
      hook: this.#hook ?? null,
    };
  }

  /** The tracker's memory, to go on elsewhere with {@linkcode AgentTracker.restore}. */
  save(): TrackerState {
    return {
      agent: this.#agent?.id ?? null,
      state: this.#state,
      in_turn: this.#inTurn,
      turns: this.#turns,
      hook: this.#hook ? { ...this.#hook } : null,
      raw_idle_since: this.#rawIdleSince ?? null,
      last_working_at: this.#lastWorkingAt,
      submitted_at: this.#submittedAt ?? null,
      agent_since: this.#agentSince,
      working_since: this.#workingSince ?? null,
    };
  }

  /**
   * Takes up a memory saved by {@linkcode AgentTracker.save} on a new
   * tracker. An agent the registry no longer knows is forgotten: the next
   * reading starts over, as for an agent that just appeared.
   */
  restore(state: TrackerState): void {
    const agent = state.agent === null ? undefined : this.#registry().get(state.agent);
    if (state.agent !== null && !agent) return;
    this.#agent = agent;
    this.#state = state.state;
    this.#inTurn = state.in_turn;
    this.#turns = state.turns;
    this.#hook = state.hook ?? undefined;
    this.#rawIdleSince = state.raw_idle_since ?? undefined;
    this.#lastWorkingAt = state.last_working_at;
    this.#submittedAt = state.submitted_at ?? undefined;
    this.#agentSince = state.agent_since;
    this.#workingSince = state.working_since ?? undefined;
  }

  /** How long the current agent has been in front (ms), or 0. */
  agentAge(now: number): number {
    return this.#agent ? now - this.#agentSince : 0;
  }
}
