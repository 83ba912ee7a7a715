/**
 * The agent side of every pane: one {@linkcode PaneWatch} each, the agent
 * registry (rebuilt when the config changes), and the events and unread
 * flags (with their reasons) that come from them.
 *
 * @module
 */

import { AgentRegistry } from "../../agents/registry.ts";
import type { TrackerEvent } from "../../agents/tracker.ts";
import { SkiffError } from "../../errors.ts";
import type { Config } from "../../config/config.ts";
import type { EventName, PaneEventBase } from "../../protocol/events.ts";
import type { UnreadReason } from "../../protocol/panes.ts";
import type { EventBus } from "../records/mod.ts";
import type { InputSource, Pane, PaneHooks } from "./pane.ts";
import { PaneWatch } from "./pane_watch.ts";

/** At most one `typed` event per pane in this many ms. */
const TYPED_EVENT_EVERY_MS = 1000;

/** The unread reason a tracker event brings, if any. */
function unreadReasonOf(event: TrackerEvent): UnreadReason | undefined {
  switch (event.event) {
    case "turn-end":
    case "idle-no-turn":
    case "waiting":
      return event.event;
    case "exit":
      return event.fields.what === "agent" ? "agent-exit" : "exit";
    default:
      return undefined;
  }
}

/** The fields every pane event carries. */
export function paneEventFields(pane: Pane): Omit<PaneEventBase, "time" | "run" | "seq"> {
  return { pane: pane.id, name: pane.name, generation: pane.saved.generation };
}

/** Options for {@linkcode AgentWatches}. */
export interface AgentWatchesOptions {
  /** The current config. */
  config: () => Config;
  /** The event stream. */
  events: EventBus;
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
  /** Saves the workspace (unread flags live in it). */
  save: () => void;
  /** The agent in front of a pane left (exited, or the pane's process did), not at a stop. */
  agentLeft?: (pane: Pane) => void;
}

/** The watches of every pane. */
export class AgentWatches {
  readonly #watches = new Map<string, PaneWatch>();
  readonly #typedEventAt = new Map<string, number>();
  readonly #options: AgentWatchesOptions;
  #stopping = false;
  #registry: { config: Config; registry: AgentRegistry } | undefined;

  /** Makes an empty set of watches. */
  constructor(options: AgentWatchesOptions) {
    this.#options = options;
  }

  /** The known agents, rebuilt when the config changes; a broken `[agents]` keeps the last good set. */
  registry(): AgentRegistry {
    const config = this.#options.config();
    if (this.#registry?.config !== config) {
      try {
        this.#registry = {
          config,
          registry: new AgentRegistry(config),
        };
      } catch (error) {
        this.#options.log(`agents not loaded: ${(error as Error).message}`);
        this.#registry = { config, registry: this.#registry?.registry ?? new AgentRegistry() };
      }
    }
    return this.#registry.registry;
  }

  /** The watch of a pane, if it has one. */
  get(pane: Pane): PaneWatch | undefined {
    return this.#watches.get(pane.id);
  }

  /** The watch of a pane; throws NOT_FOUND when the pane is gone. */
  of(pane: Pane): PaneWatch {
    const watch = this.#watches.get(pane.id);
    if (!watch) throw new SkiffError(`Pane '${pane.name}' is gone`, { exit: "NOT_FOUND" });
    return watch;
  }

  /** The pane callbacks that feed the watches. */
  paneHooks(): Pick<PaneHooks, "bell" | "activity" | "input"> {
    return {
      bell: (pane) => {
        if (this.#stopping) return;
        this.#markUnread(pane, "bell");
        this.#options.events.emit("bell", {
          ...paneEventFields(pane),
          agent: this.get(pane)?.tracker.agent?.id ?? null,
          unread_reasons: pane.saved.unread_reasons ?? [],
        });
      },
      activity: (pane) => this.get(pane)?.schedule(),
      input: (pane, data, source) => this.#input(pane, data, source),
    };
  }

  /** Starts watching a pane. */
  add(pane: Pane): PaneWatch {
    const watch = new PaneWatch(pane, {
      registry: () => this.registry(),
      emit: (p, event) => this.#trackerEvent(p, event),
      stateChanged: (p) => this.#stateChanged(p),
      noTurnMs: () => this.#options.config().daemon.turnStartSeconds * 1000,
    });
    if (pane.status === "exited") watch.tracker.exitedBefore();
    this.#watches.set(pane.id, watch);
    return watch;
  }

  /** Stops watching a pane. */
  remove(pane: Pane): void {
    this.#watches.get(pane.id)?.dispose();
    this.#watches.delete(pane.id);
    this.#typedEventAt.delete(pane.id);
  }

  /**
   * From now on, exits are skiffd's own doing (it is stopping): they are not
   * the panes' news, so they neither set unread nor go out as events.
   */
  stopping(): void {
    this.#stopping = true;
  }

  #markUnread(pane: Pane, reason: UnreadReason): void {
    const reasons = pane.saved.unread_reasons ?? [];
    if (pane.saved.unread && reasons.includes(reason)) return;
    pane.saved.unread = true;
    pane.saved.unread_reasons = reasons.includes(reason) ? reasons : [...reasons, reason];
    this.#options.save();
  }

  /**
   * Clears a pane's unread flag and, when it was set, tells the event stream
   * (`seen`); says whether it was set, and why.
   */
  seen(pane: Pane): { was: boolean; reasons: UnreadReason[] } {
    if (!pane.saved.unread) return { was: false, reasons: [] };
    const reasons = pane.saved.unread_reasons ?? [];
    pane.saved.unread = false;
    pane.saved.unread_reasons = [];
    this.#options.save();
    this.#options.events.emit("seen", { ...paneEventFields(pane), unread_reasons: reasons });
    return { was: true, reasons };
  }

  /**
   * A person's terminal left the pane (a detach, or its connection closed):
   * what made the pane unread was in front of them, before and while they
   * were attached (an attach draws the screen), so it is seen. Turn ends still
   * raise their events and set the flag while the terminal is attached, so
   * the watcher tells the Skiff agent of them as the spec has it; only the
   * person's own list of panes to go back to (`w`, the unread dots) forgets
   * them. Not while skiffd stops: its terminals are told to come back.
   */
  personLeft(pane: Pane): void {
    if (this.#stopping || !this.#watches.has(pane.id)) return;
    this.seen(pane);
  }

  #trackerEvent(pane: Pane, event: TrackerEvent): void {
    if (this.#stopping && event.event === "exit") return;
    if (event.event === "exit" && event.fields.agent) this.#options.agentLeft?.(pane);
    const fields: Record<string, unknown> = {
      ...paneEventFields(pane),
      agent: this.get(pane)?.tracker.agent?.id ?? null,
      ...event.fields,
    };
    if (event.event === "exit" && event.fields.what === "process") {
      fields.exit_code = pane.exit?.exitCode ?? null;
      fields.signal = pane.exit?.signal || null;
    }
    const reason = unreadReasonOf(event);
    if (reason) {
      this.#markUnread(pane, reason);
      fields.unread_reasons = pane.saved.unread_reasons ?? [];
    }
    this.#options.log(`pane ${pane.id} ${event.event} ${JSON.stringify(event.fields)}`);
    // The tracker raises only agent events; their fields are the ones built here.
    this.#options.events.emit(event.event as EventName, fields as never);
  }

  #stateChanged(pane: Pane): void {
    const watch = this.get(pane);
    if (this.#stopping || !watch) return;
    pane.stateSince = Date.now();
    this.#options.events.emit("state", {
      ...paneEventFields(pane),
      agent: watch.tracker.agent?.id ?? null,
      state: pane.status === "exited" ? "exited" : watch.tracker.state,
    });
  }

  #input(pane: Pane, data: Uint8Array, source: InputSource): void {
    const watch = this.get(pane);
    // Enter into an idle agent submits a prompt, whoever typed it.
    if (data.includes(0x0d)) watch?.submitted();
    watch?.schedule();
    if (source !== "person") return;
    const now = Date.now();
    if (now - (this.#typedEventAt.get(pane.id) ?? 0) < TYPED_EVENT_EVERY_MS) return;
    this.#typedEventAt.set(pane.id, now);
    this.#options.events.emit("typed", paneEventFields(pane));
  }
}
