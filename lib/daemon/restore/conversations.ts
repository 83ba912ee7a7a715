/**
 * Each pane's agent conversation, learned from the agent's own hooks and
 * kept in the workspace with the agent, its folder and the pane, so that a
 * restore can resume it (`resume.ts`).
 *
 * - The newest id from the pane's agent wins: ids rotate (`/clear`,
 *   compaction, a resume that makes a new one), and the events that name
 *   the current conversation are the profile's (`ResumeRule.id.events`).
 * - An id is never dropped: not when the agent exits (the conversation is
 *   then no longer live: a restore resumes only agents that ran), not when
 *   a resume fails. Only a newer id from the same pane replaces it.
 * - Only ids the agent's hooks named in that pane are taken (or the id
 *   Skiff chose when it started the agent); nothing is adopted from a scan.
 *
 * @module
 */

import { isAbsolute } from "../../platform/path.ts";
import type { AgentProfile } from "../../agents/mod.ts";
import { CONVERSATION_ID, findRecord } from "../../agents/records.ts";
import type { PaneConversation } from "../../protocol/panes.ts";
import type { Pane } from "../panes/mod.ts";

/** How long a record may lag behind the hook that names it (Codex writes its rollout as it notifies). */
const RECORD_LAG_MS = 1500;

/** Reads a dotted path (`info.id`) from a payload as a non-empty string, or undefined. */
export function payloadText(payload: Record<string, unknown>, path: string): string | undefined {
  let value: unknown = payload;
  for (const part of path.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Options for {@linkcode Conversations}. */
export interface ConversationsOptions {
  /** Saves the workspace. */
  save: () => void;
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
  /** The environment a pane's programs run in, where agents keep their records. */
  env: (pane: Pane) => Record<string, string>;
}

/** What a hook named, before it is taken. */
interface Named {
  agent: string;
  id: string;
  cwd: string;
  record: string | null;
  source: string;
}

/** Keeps each pane's agent conversation. */
export class Conversations {
  readonly #options: ConversationsOptions;
  /** Per pane, the number of the last hook heard, so a slow record check never undoes a newer id. */
  readonly #heard = new Map<string, number>();

  /** Saves through `options.save`. */
  constructor(options: ConversationsOptions) {
    this.#options = options;
  }

  /**
   * A hook of `profile`'s agent reached skiffd from `pane`: takes the
   * conversation it names, if it names one.
   */
  async heard(
    pane: Pane,
    profile: AgentProfile | undefined,
    hook: { event: string; payload: Record<string, unknown> },
  ): Promise<void> {
    const rule = profile?.resume;
    if (!profile || !rule) return;
    const { event, payload } = hook;
    if (rule.id.events ? !rule.id.events.includes(event) : event === "SessionEnd") return;
    if (rule.id.unless?.some((field) => payloadText(payload, field) !== undefined)) return;
    const id = payloadText(payload, rule.id.field);
    if (!id || !CONVERSATION_ID.test(id)) return;
    const cwd = payloadText(payload, rule.id.cwd ?? "cwd");
    const named: Named = {
      agent: profile.id,
      id,
      cwd: cwd && isAbsolute(cwd) ? cwd : pane.saved.cwd,
      record: rule.record.field ? payloadText(payload, rule.record.field) ?? null : null,
      source: event,
    };
    const number = (this.#heard.get(pane.id) ?? 0) + 1;
    this.#heard.set(pane.id, number);
    const known = pane.saved.conversation;
    if (rule.id.needsRecord && !(known?.agent === profile.id && known.id === id)) {
      const search = { id, path: named.record, env: this.#options.env(pane) };
      let found = (await findRecord(rule.record, search)).found;
      if (!found) {
        await new Promise((resolve) => setTimeout(resolve, RECORD_LAG_MS));
        found = (await findRecord(rule.record, search)).found;
      }
      if (!found) {
        this.#options.log(
          `pane ${pane.id}: ${profile.id} named conversation ${id}, which has no record; not taken`,
        );
        return;
      }
      named.record = found;
      // A newer hook of this pane was taken meanwhile: it wins.
      if (this.#heard.get(pane.id) !== number) return;
    }
    this.#take(pane, named);
  }

  /** Skiff started `pane`'s agent in a new conversation under an id it chose. */
  started(pane: { saved: Pane["saved"] }, agent: string, id: string): void {
    pane.saved.conversation = {
      agent,
      id,
      cwd: pane.saved.cwd,
      record: null,
      live: true,
      learned: new Date().toISOString(),
      source: "start",
    };
  }

  /**
   * `pane`'s agent left its front (it exited, or the pane's process did):
   * the conversation is kept, no longer live.
   */
  agentLeft(pane: Pane): void {
    const known = pane.saved.conversation;
    if (!known?.live) return;
    known.live = false;
    this.#options.save();
  }

  /** The agent of `pane` is being resumed in `conversation`: it counts as running. */
  resuming(pane: Pane): void {
    const known = pane.saved.conversation;
    if (known && !known.live) {
      known.live = true;
      this.#options.save();
    }
  }

  /** Forgets a pane that was killed. */
  forget(pane: Pane): void {
    this.#heard.delete(pane.id);
  }

  #take(pane: Pane, named: Named): void {
    const known = pane.saved.conversation;
    const same = known !== undefined && known.agent === named.agent && known.id === named.id;
    const next: PaneConversation = {
      ...named,
      // A hook without a record path keeps the one known for this conversation.
      record: named.record ?? (same ? known.record : null),
      live: true,
      learned: new Date().toISOString(),
    };
    pane.saved.conversation = next;
    const changed = !same || known.cwd !== next.cwd || known.record !== next.record ||
      !known.live;
    if (!changed) return;
    if (!same) {
      this.#options.log(
        `pane ${pane.id}: ${named.agent} conversation ${named.id} (${named.source}) in ${named.cwd}`,
      );
    }
    this.#options.save();
  }
}
