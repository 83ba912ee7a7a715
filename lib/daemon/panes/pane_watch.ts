/**
 * Watches one pane's agent: re-reads it when the screen changes (at most
 * every {@linkcode EVALUATE_EVERY_MS}), when a hook reports, and when a
 * timer is due; raises the tracker's events; and lets callers wait for a
 * condition without polling.
 *
 * @module
 */

import type { AgentRegistry } from "../../agents/registry.ts";
import { AgentTracker, type HookReport, type TrackerEvent } from "../../agents/tracker.ts";
import type { Pane } from "./pane.ts";

/** The shortest gap between two readings of one pane. */
export const EVALUATE_EVERY_MS = 50;
/** The gap while someone waits on the pane (a send or a wait). */
export const EVALUATE_EAGER_MS = 5;

/** Options for {@linkcode PaneWatch}. */
export interface PaneWatchOptions {
  /** The current registry of agents. */
  registry: () => AgentRegistry;
  /** Receives each event the tracker raises. */
  emit: (pane: Pane, event: TrackerEvent) => void;
  /** Hears that the pane's state changed, after the events of that reading. */
  stateChanged: (pane: Pane) => void;
  /** How long a turn may take to start after a prompt. */
  noTurnMs: () => number;
}

/** One pane's agent watch. */
export class PaneWatch {
  /** The tracker. */
  readonly tracker: AgentTracker;
  readonly #pane: Pane;
  readonly #options: PaneWatchOptions;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #dueTimer: ReturnType<typeof setTimeout> | undefined;
  #lastAt = 0;
  #disposed = false;
  readonly #waiters = new Set<() => void>();

  /** Starts watching `pane`. */
  constructor(pane: Pane, options: PaneWatchOptions) {
    this.#pane = pane;
    this.#options = options;
    this.tracker = new AgentTracker(options.registry, {
      noTurnMs: options.noTurnMs,
    });
  }

  /** Asks for a reading soon (throttled). */
  schedule(): void {
    if (this.#disposed || this.#timer !== undefined) return;
    const gap = this.#waiters.size > 0 ? EVALUATE_EAGER_MS : EVALUATE_EVERY_MS;
    const wait = Math.max(0, this.#lastAt + gap - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.evaluate();
    }, wait);
  }

  /** Reads the pane now and raises any events. */
  evaluate(): void {
    if (this.#disposed) return;
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#lastAt = Date.now();
    const before = this.tracker.state;
    const events = this.tracker.update({
      now: this.#lastAt,
      view: () => this.#pane.screen.view(),
      foreground: this.#pane.status === "running" ? this.#pane.foreground() : undefined,
      running: this.#pane.status === "running",
      hooked: this.#pane.saved.agent_launch?.hooks
        ? this.#pane.saved.agent_launch.agent
        : undefined,
    });
    for (const event of events) this.#options.emit(this.#pane, event);
    if (this.tracker.state !== before) this.#options.stateChanged(this.#pane);
    this.#armDueTimer();
    for (const waiter of [...this.#waiters]) waiter();
  }

  #armDueTimer(): void {
    if (this.#dueTimer !== undefined) clearTimeout(this.#dueTimer);
    this.#dueTimer = undefined;
    const due = this.tracker.nextCheckAt();
    if (due === undefined) return;
    this.#dueTimer = setTimeout(() => {
      this.#dueTimer = undefined;
      this.evaluate();
    }, Math.max(10, due - Date.now() + 5));
  }

  /**
   * Notes that Enter went in. The pane is read first: what its input box holds decides what Enter
   * submits (a command the agent runs out of sight, Qwen Code's `/clear`), and the last reading
   * may be up to {@linkcode EVALUATE_EVERY_MS} older than the last key typed.
   */
  submitted(): void {
    this.evaluate();
    this.tracker.submitted(Date.now());
  }

  /**
   * Notes a hook event heard only for the conversation's id (it may end a
   * command the agent runs out of sight) and reads the pane again at once.
   */
  heard(event: string): void {
    this.tracker.heard(event, Date.now());
    this.evaluate();
  }

  /** Records a hook report and reads the pane again at once. */
  hook(report: HookReport): void {
    this.tracker.hookReport(report);
    this.evaluate();
  }

  /**
   * Resolves with `check()`'s first value other than `undefined`, checked
   * after every reading, or with `undefined` after `timeoutMs`.
   */
  waitUntil<T>(check: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
    const first = check();
    if (first !== undefined || timeoutMs <= 0) return Promise.resolve(first);
    return new Promise((resolve) => {
      const finish = (value: T | undefined) => {
        this.#waiters.delete(waiter);
        clearTimeout(timer);
        resolve(value);
      };
      const waiter = () => {
        const value = check();
        if (value !== undefined || this.#disposed) finish(value);
      };
      const timer = setTimeout(() => finish(check()), timeoutMs);
      this.#waiters.add(waiter);
    });
  }

  /** Stops watching. */
  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#dueTimer);
    for (const waiter of [...this.#waiters]) waiter();
  }
}
