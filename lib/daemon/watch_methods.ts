/**
 * The daemon methods of the watcher: register, report, status.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { WatchMethods } from "../protocol/watch.ts";
import type { MethodTable } from "./method_types.ts";
import { needInt, type Params } from "./params.ts";

function paneList(params: Params, key: string): string[] {
  const value = params[key];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw new SkiffError(`Bad request: '${key}' must be a list of pane ids`, { exit: "USAGE" });
  }
  return value;
}

/** The watcher's methods by name. */
export const WATCH_METHODS: MethodTable<keyof WatchMethods> = {
  "watch.register": (params, ctx) =>
    ctx.watcher.register(ctx.connection, needInt(params, "pid", 1, 2 ** 31)),

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
};
