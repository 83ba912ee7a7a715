/**
 * The daemon methods of the watcher: register, report, status.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";
import type { WatchMethods } from "../../protocol/watch.ts";
import type { MethodTable } from "./method_types.ts";
import { flag, maybeString, needInt, needString, type Params } from "./params.ts";

function paneList(params: Params, key: string): string[] {
  const value = params[key];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw new SkiffError(`Bad request: '${key}' must be a list of pane ids`, { exit: "USAGE" });
  }
  return value;
}

/** The watcher's methods by name. */
export const WATCH_METHODS: MethodTable<keyof WatchMethods> = {
  "watch.register": (params, ctx) => {
    const started = maybeString(params, "started");
    const at = started === undefined ? NaN : Date.parse(started);
    if (started !== undefined && !(at <= Date.now() + 60_000)) {
      throw new SkiffError("Bad request: 'started' must be a time (ISO 8601), not in the future", {
        exit: "USAGE",
      });
    }
    return ctx.watcher.register(ctx.connection, needInt(params, "pid", 1, 2 ** 31), {
      started: started === undefined ? undefined : new Date(Math.min(at, Date.now())),
      reconnected: flag(params, "reconnected"),
    });
  },

  "watch.report": (params, ctx) => {
    if (typeof params.ok !== "boolean") {
      throw new SkiffError("Bad request: 'ok' must be true or false", { exit: "USAGE" });
    }
    const last = params.last;
    if (last !== undefined && typeof last !== "string") {
      throw new SkiffError("Bad request: 'last' must be a string", { exit: "USAGE" });
    }
    return ctx.watcher.report(ctx.connection, {
      ok: params.ok,
      last: last as string | undefined,
      watching: paneList(params, "watching"),
      waiting_lines: needInt(params, "waiting_lines", 0, 1_000_000),
    });
  },

  "watch.status": (_params, ctx) => ctx.watcher.status(),

  "watch.forget": (params, ctx) => ({ forgotten: ctx.watcher.forget(needString(params, "pane")) }),
};
