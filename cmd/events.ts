/**
 * `skiff events`: follow the daemon's event stream.
 *
 * @module
 */

import { defineCommand, Exit, SkiffError } from "../lib/cli/mod.ts";
import { writeAllSync } from "../lib/platform/bytes.ts";
import { followEvents } from "../lib/client/mod.ts";
import { type Event, EVENT_NAMES } from "../lib/protocol/events.ts";

/** How long to look for skiffd again after it drops the stream (a reload or restart). */
const RECONNECT_MS = 10_000;

function textLine(event: Event): string {
  const { event: name, time, pane, name: paneName, run: _run, seq: _seq, ...rest } = event as
    & Event
    & { pane?: string; name?: string };
  // Empty facts (no agent, no reasons) are left out: a line says what is there.
  const fields = Object.entries(rest)
    .filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) =>
      `${k}=${typeof v === "string" ? v : Array.isArray(v) ? v.join(",") : JSON.stringify(v)}`
    );
  const who = pane ? `${pane}${paneName ? ` ${paneName}` : ""}` : "";
  return [time.slice(11, 19), name, who, ...fields].filter((s) => s !== "").join(" ");
}

/** The `events` command. */
export const command = defineCommand({
  name: "events",
  summary: "Follow the daemon's events, one a line",
  description: `Print events as they happen: ${
    EVENT_NAMES.join(", ")
  }. With --json each line is one JSON object with the pane id, name, generation, time, and the event's place in the stream (run, seq). The stream follows skiffd through reloads and restarts, resuming after the last event it printed; a resync event says when some could not be told. It ends (exit 4) when skiffd is stopped for good, after its daemon-stopping event.`,
  options: [
    { name: "count", type: "number", value: "N", help: "Exit after N events" },
  ],
  exits: [["DAEMON", "skiffd could not be reached, or went away"]],
  run: async (ctx) => {
    const limit = ctx.opts.count;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      throw new SkiffError("Option '--count' needs a whole number above 0", { exit: "USAGE" });
    }
    const encoder = new TextEncoder();
    let seen = 0;
    for await (const event of followEvents({ reconnectMs: RECONNECT_MS })) {
      const line = ctx.json ? JSON.stringify(event) : textLine(event);
      writeAllSync(Deno.stdout, encoder.encode(line + "\n"));
      if (limit !== undefined && ++seen >= limit) return Exit.OK;
      if (event.event === "daemon-stopping" && !event.returning) {
        throw new SkiffError("skiffd was stopped", { exit: "DAEMON" });
      }
    }
  },
});
