/**
 * `skiff events`: follow the daemon's event stream.
 *
 * @module
 */

import { defineCommand, Exit, SkiffError, stdout } from "../lib/cli/mod.ts";
import { writeAllSync } from "../lib/platform/bytes.ts";
import { followEvents, markLinkSocket } from "../lib/client/mod.ts";
import { linkError, linkTo, parsePaneRef, withPane } from "../lib/hosts/resolve.ts";
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

/** An event of a pane on `host`, as text shows it: `gpu1:p3 gpu1:reviewer`. */
function onHost(host: string, event: Event): Event {
  if (!("pane" in event)) return event;
  return { ...event, pane: `${host}:${event.pane}`, name: `${host}:${event.name}` } as Event;
}

/** The event types `--type` names (a list, comma-separated or repeated), checked. */
function eventTypes(values: string[]): Set<string> {
  const types = new Set(values.flatMap((v) => v.split(",")).map((t) => t.trim()).filter(Boolean));
  for (const type of types) {
    if (!(EVENT_NAMES as readonly string[]).includes(type)) {
      throw new SkiffError(
        `Unknown event type '${type}'; the types are ${EVENT_NAMES.join(", ")}`,
        {
          exit: "USAGE",
        },
      );
    }
  }
  return types;
}

/** The `events` command. */
export const command = defineCommand({
  name: "events",
  summary: "Follow the daemon's events, one a line",
  description: `Print events as they happen: ${
    EVENT_NAMES.join(", ")
  }. With --json each line is one JSON object with the pane id, name, generation, time, and the event's place in the stream (run, seq). Text mode leaves out title events (a working agent's spinner makes one a second) unless --type names them. --pane keeps one pane's events and --type the types named; a resync (events were missed) always shows. The stream follows skiffd through reloads and restarts, resuming after the last event it printed. It ends (exit 4) when skiffd is stopped for good, after its daemon-stopping event.`,
  options: [
    { name: "count", type: "number", value: "N", help: "Exit after N events" },
    {
      name: "pane",
      type: "string",
      value: "PANE",
      help: "Only this pane's events (id, name, project/name, or HOST:PANE on another host)",
      complete: "pane",
    },
    {
      name: "type",
      type: "list",
      value: "TYPE",
      help: "Only events of these types (TYPE,TYPE… or repeated)",
      suggest: EVENT_NAMES,
    },
  ],
  examples: [
    "skiff events --pane reviewer --type turn-end,idle-no-turn",
    "skiff events --json --count 1 --type exit",
  ],
  exits: [
    ["NOT_FOUND", "No such pane"],
    ["DAEMON", "skiffd could not be reached, or went away"],
    ["UNREACHABLE", "The host of --pane HOST:PANE cannot be reached"],
  ],
  run: async (ctx) => {
    const limit = ctx.opts.count;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      throw new SkiffError("Option '--count' needs a whole number above 0", { exit: "USAGE" });
    }
    const types = eventTypes(ctx.opts.type);
    // A pane is followed by its id, which a rename or a restart keeps; a pane of another host
    // through its host's events, over the link (held while this runs).
    const ref = ctx.opts.pane;
    const host = ref === undefined ? null : parsePaneRef(ref).host;
    const pane = ref === undefined
      ? undefined
      : (await withPane(ref, (client, p) => client.call("pane.get", { pane: p }))).id;
    let socket: string | undefined;
    if (host !== null) {
      const { link } = await linkTo(host, { hold: true });
      if (link.state !== "up" || link.socket === null) throw linkError(link);
      socket = link.socket;
      markLinkSocket(socket, host);
    }
    const shown = (event: Event): boolean => {
      if (event.event === "resync") return true;
      if (types.size > 0 ? !types.has(event.event) : !ctx.json && event.event === "title") {
        return false;
      }
      return pane === undefined || (event as { pane?: string }).pane === pane;
    };
    const encoder = new TextEncoder();
    let seen = 0;
    for await (
      const event of followEvents({
        reconnectMs: RECONNECT_MS,
        socket,
        ...(socket ? { start: false } : {}),
      })
    ) {
      if (shown(event)) {
        const line = ctx.json
          ? JSON.stringify(host === null ? event : { ...event, host })
          : textLine(host === null ? event : onHost(host, event));
        writeAllSync(stdout, encoder.encode(line + "\n"));
        if (limit !== undefined && ++seen >= limit) return Exit.OK;
      }
      if (event.event === "daemon-stopping" && !event.returning) {
        throw new SkiffError("skiffd was stopped", { exit: "DAEMON" });
      }
    }
  },
});
