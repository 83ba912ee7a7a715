/**
 * `skiff daemon status`: whether skiffd runs, its pid, uptime and panes.
 *
 * @module
 */

import { defineCommand, Exit } from "../../lib/cli/mod.ts";
import { socketPath } from "../../lib/config/paths.ts";
import { compareVersions, quietSkewHint, tryConnect } from "../../lib/client/mod.ts";
import { age } from "../../lib/client/format.ts";
import type { UpgradeOutcome } from "../../lib/protocol/daemon.ts";
import { PROTOCOL_VERSION, VERSION } from "../../lib/version.ts";
import type { WatcherHealth } from "../../lib/protocol/watch.ts";

/** This skiff's own version and protocol, which `daemon status` shows beside skiffd's. */
const CLIENT = { version: VERSION, protocol: PROTOCOL_VERSION };

/** The last upgrade in one line, as `--json` gives it in `upgrade`. */
function upgradeLine(u: UpgradeOutcome): string {
  const ago = age(Date.now() - Date.parse(u.at));
  return u.ok
    ? `upgraded in place from ${u.from} ${ago} ago; output stood still ${u.ms.freeze ?? "?"} ms`
    : `the last upgrade (${ago} ago) stopped at its ${u.step ?? "?"} step: ${u.error}`;
}

/** The watcher's health in one line, as `--json` gives it in `watcher`. */
function watcherLine(w: WatcherHealth): string {
  if (!w.running) {
    return "watcher: not running (skiffd starts it while the Skiff agent's session exists)";
  }
  const since = w.started ? `, up ${age(Date.now() - Date.parse(w.started))}` : "";
  const watching = w.watching.length === 0
    ? "nothing to watch"
    : `watching ${w.watching.join(", ")}`;
  const waiting = w.waiting_lines === 0
    ? ""
    : `, ${w.waiting_lines} line${w.waiting_lines === 1 ? "" : "s"} waiting`;
  const when = w.last_at ? ` (${age(Date.now() - Date.parse(w.last_at))} ago)` : "";
  const last = w.last === null ? "" : w.ok ? `; last: ${w.last}${when}` : "";
  const failed = w.ok ? "" : `; its last line failed: ${w.last ?? "unknown"}${when}`;
  return `watcher: running, pid ${w.pid}${since}, ${watching}${waiting}${last}${failed}`;
}

/** The `daemon status` command. */
export const command = defineCommand({
  name: "status",
  summary: "Show whether skiffd runs, its pid, version, uptime and panes, and the watcher's health",
  exits: [
    ["DAEMON", "skiffd is not running"],
    ["PROTOCOL", "skiffd speaks another protocol version than this skiff"],
  ],
  run: async (ctx) => {
    // The status shows both versions itself.
    quietSkewHint();
    const socket = socketPath();
    const client = await tryConnect(socket);
    if (!client) {
      ctx.out.result(
        { running: false, socket, client: CLIENT },
        () => ctx.out.line("skiffd is not running"),
      );
      return Exit.DAEMON;
    }
    try {
      const s = await client.call("daemon.status");
      ctx.out.result({ running: true, ...s, client: CLIENT }, () => {
        const panes = s.panes === 1 ? "1 pane" : `${s.panes} panes`;
        ctx.out.line(
          `skiffd ${s.version} running, pid ${s.pid}, up ${age(s.uptime_ms)}, ` +
            `${panes} (${s.running_panes} running), socket ${s.socket}`,
        );
        const skew = compareVersions(s.version, VERSION);
        ctx.out.line(
          skew === 0
            ? `this skiff is ${VERSION} too`
            : skew < 0
            ? `this skiff is ${VERSION}, newer: 'skiff daemon upgrade' moves skiffd to it ` +
              `(every pane keeps running)`
            : `this skiff is ${VERSION}, older than skiffd`,
        );
        ctx.out.line(watcherLine(s.watcher));
        if (s.upgrade) ctx.out.line(upgradeLine(s.upgrade));
        if (s.workspace_error) {
          ctx.out.line(`the workspace is not saved: ${s.workspace_error}; see ${s.log}`);
        }
      });
    } finally {
      client.close();
    }
  },
});
