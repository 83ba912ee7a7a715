/**
 * The daemon methods of agent awareness: send, wait, seen, explain and hook.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";
import { hookState } from "../../agents/hooks.ts";
import { hookEvents } from "../../agents/hook_setup.ts";
import {
  type AgentMethods,
  MAX_SEND_TEXT_BYTES,
  sendTextTooLong,
  type TellLine,
  type WaitState,
} from "../../protocol/agents.ts";
import type { MethodTable } from "./method_types.ts";
import { flag, maybeInt, maybeString, needString, type Params } from "./params.ts";
import { guardedSend, waitForState } from "../panes/mod.ts";

/** States `pane.wait` can wait for. */
const WAIT_STATES: WaitState[] = ["idle", "working", "waiting", "exited", "starting", "shell"];

function timeout(params: Params, fallback: number): number {
  return maybeInt(params, "timeout_ms", 0, 86_400_000) ?? fallback;
}

/** Reads the optional `tells` of `pane.send`: a list of `{pane, line}` strings. */
function tellLines(params: Params): TellLine[] | undefined {
  const value = params.tells;
  if (value === undefined || value === null) return undefined;
  if (
    !Array.isArray(value) ||
    !value.every((t) =>
      typeof t === "object" && t !== null && typeof t.pane === "string" &&
      typeof t.line === "string"
    )
  ) {
    throw new SkiffError("Bad request: 'tells' must be a list of {pane, line} strings", {
      exit: "USAGE",
    });
  }
  return value.map((t) => ({ pane: t.pane, line: t.line }));
}

/** The agent-awareness methods by name. */
export const AGENT_METHODS: MethodTable<keyof AgentMethods> = {
  "pane.send": async (params, ctx) => {
    const pane = ctx.workspace.resolvePane(needString(params, "pane"));
    const text = params.text;
    if (typeof text !== "string" || text.trim() === "") {
      throw new SkiffError("Bad request: 'text' must be a non-empty string", { exit: "USAGE" });
    }
    const tooLong = sendTextTooLong(text);
    if (tooLong) {
      throw new SkiffError(tooLong, {
        exit: "USAGE",
        details: { limit: MAX_SEND_TEXT_BYTES },
      });
    }
    const tells = tellLines(params);
    // Checked and, at Enter, remembered with no await in between: two sends cannot both pass.
    const told = tells ? ctx.watcher.alreadyTold(tells) : [];
    if (told.length > 0) {
      throw new SkiffError(`Pane '${pane.name}': ${told.length} line(s) were told already`, {
        exit: "CONFLICT",
        details: { pane: pane.id, reason: "told", lines: told },
      });
    }
    return await guardedSend(pane, ctx.workspace.watchOf(pane), {
      text,
      enter: flag(params, "enter"),
      any: flag(params, "any"),
      turnTimeoutMs: timeout(params, ctx.workspace.config.daemon.turnStartSeconds * 1000),
      sinceInputs: maybeInt(params, "since_inputs", 0, Number.MAX_SAFE_INTEGER),
      submitted: tells ? () => ctx.watcher.remember(tells) : undefined,
    });
  },

  "pane.wait": async (params, ctx) => {
    const pane = ctx.workspace.resolvePane(needString(params, "pane"));
    const until = needString(params, "until") as WaitState;
    if (!WAIT_STATES.includes(until)) {
      throw new SkiffError(`Bad request: 'until' must be one of ${WAIT_STATES.join(", ")}`, {
        exit: "USAGE",
      });
    }
    return await waitForState(pane, until, {
      watch: ctx.workspace.watchOf(pane),
      info: () => ctx.workspace.info(pane),
      limitMs: timeout(params, 0),
    });
  },

  "pane.ready": async (params, ctx) => {
    const pane = ctx.workspace.resolvePane(needString(params, "pane"));
    const limit = timeout(params, 0);
    const details = () => ({
      pane: pane.id,
      name: pane.name,
      state: ctx.workspace.info(pane).state,
    });
    try {
      await waitForState(pane, "idle", {
        watch: ctx.workspace.watchOf(pane),
        info: () => ctx.workspace.info(pane),
        limitMs: limit,
      });
    } catch (error) {
      if (!(error instanceof SkiffError)) throw error;
      if (!ctx.workspace.panes.includes(pane)) {
        throw new SkiffError(`Pane '${pane.name}' was killed before its agent was ready`, {
          exit: "NOT_FOUND",
          details: { pane: pane.id, name: pane.name },
        });
      }
      const why = error.exit === "NOT_RUNNING"
        ? `Pane '${pane.name}' exited before its agent was ready`
        : error.exit === "NO_AGENT"
        ? `Pane '${pane.name}' runs no agent, so it never gets ready: start one with --agent`
        : error.exit === "TIMEOUT"
        ? `Pane '${pane.name}' is not ready after ${
          Math.round(limit / 1000)
        } s: it is ${details().state}. See 'skiff capture ${pane.name}'`
        : error.message;
      throw new SkiffError(why, { exit: error.exit, details: details(), cause: error });
    }
    return ctx.workspace.info(pane);
  },

  "pane.seen": (params, ctx) => {
    const pane = ctx.workspace.resolvePane(needString(params, "pane"));
    const { was, reasons } = ctx.workspace.watches.seen(pane);
    return { pane: pane.id, name: pane.name, was_unread: was, unread: false, reasons };
  },

  "pane.explain": (params, ctx) => {
    const pane = ctx.workspace.resolvePane(needString(params, "pane"));
    const watch = ctx.workspace.watchOf(pane);
    watch.evaluate();
    const snapshot = watch.tracker.snapshot();
    const profile = watch.tracker.agent;
    return {
      ...ctx.workspace.info(pane),
      agent_label: profile?.label ?? null,
      in_turn: snapshot.in_turn,
      composer: snapshot.composer,
      signals: snapshot.signals,
      hook: snapshot.hook,
      person_typed_at: pane.personTypedAt ? new Date(pane.personTypedAt).toISOString() : null,
      person_inputs: pane.personInputs,
      bracketed_paste: pane.screen.bracketedPaste,
    };
  },

  "pane.hook": (params, ctx) => {
    const pane = ctx.workspace.resolvePane(needString(params, "pane"));
    const agent = needString(params, "agent");
    const event = needString(params, "event");
    const payload = params.payload;
    const data = typeof payload === "object" && payload !== null && !Array.isArray(payload)
      ? payload as Record<string, unknown>
      : {};
    const profile = ctx.workspace.watches.registry().get(agent);
    const state = hookState(profile, event, data);
    // An event Skiff hears only for the conversation's id says nothing about turns; it may
    // still end a command the agent runs out of sight (Qwen Code's /clear).
    const idOnly = profile !== undefined && !Object.hasOwn(profile.hooks.events, event) &&
      hookEvents(profile).includes(event);
    const watch = ctx.workspace.watchOf(pane);
    if (idOnly) watch.heard(event);
    else watch.hook({ agent, event, state, at: Date.now() });
    ctx.workspace.conversations.heard(pane, profile, { event, payload: data }).catch((error) =>
      ctx.workspace.log(`pane ${pane.id}: a ${agent} ${event} hook: ${error?.message ?? error}`)
    );
    return { pane: pane.id, agent, event, state, session: maybeString(params, "session") ?? null };
  },
};
