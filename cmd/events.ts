/**
 * `skiff events`: follow the daemon's event stream.
 *
 * @module
 */

import { defineCommand, Exit, SkiffError } from "../lib/cli/mod.ts";
import { writeAllSync } from "../lib/platform/bytes.ts";
import { connectDaemon, reconnect } from "../lib/client/mod.ts";
import type { DaemonClient } from "../lib/client/mod.ts";
import { type Event, EVENT_NAMES } from "../lib/protocol/events.ts";

/** How long to look for skiffd again after it drops the stream (a reload or restart). */
const RECONNECT_MS = 10_000;

function textLine(event: Event): string {
  const { event: name, time, pane, name: paneName, ...rest } = event as
    & Event
    & { pane?: string; name?: string };
  const fields = Object.entries(rest).map(([k, v]) =>
    `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`
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
  }. With --json each line is one JSON object with the pane id, name, generation and time. The stream follows skiffd through reloads and restarts.`,
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
    let client: DaemonClient | undefined = await connectDaemon();
    while (client) {
      for await (const event of await client.subscribe()) {
        const line = ctx.json ? JSON.stringify(event) : textLine(event);
        writeAllSync(Deno.stdout, encoder.encode(line + "\n"));
        if (limit !== undefined && ++seen >= limit) {
          client.close();
          return Exit.OK;
        }
      }
      client.close();
      client = await reconnect(RECONNECT_MS);
    }
    throw new SkiffError("skiffd went away", { exit: "DAEMON" });
  },
});
