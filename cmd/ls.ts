/**
 * `skiff ls`: list panes.
 *
 * @module
 */

import { defineCommand, outputWidth, SkiffError, table } from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";
import { frontOf, tildePath } from "../lib/client/format.ts";
import { linkTimes } from "../lib/hosts/link_times.ts";
import type { PaneInfo } from "../lib/protocol/panes.ts";

/** Reads `KEY` or `KEY=VALUE`. */
function parseMark(text: string): { key: string; value?: string } {
  const eq = text.indexOf("=");
  const key = eq === -1 ? text : text.slice(0, eq);
  if (key === "") {
    throw new SkiffError(`Bad mark '${text}': use KEY or KEY=VALUE`, { exit: "USAGE" });
  }
  return eq === -1 ? { key } : { key, value: text.slice(eq + 1) };
}

/** How long `ls --all-hosts` waits for the hosts, at most: a host that is slower is unreachable. */
const LIST_WAIT_MS = 800;

/** Whether pane `p`'s session has the mark asked for (or none was asked for). */
function hasMark(p: PaneInfo, mark: { key: string; value?: string } | undefined): boolean {
  if (!mark) return true;
  const value = p.session_marks[mark.key];
  return value !== undefined && (mark.value === undefined || value === mark.value);
}

/** The `ls` command. */
export const command = defineCommand({
  name: "ls",
  aliases: ["list"],
  summary: "List panes",
  description:
    "List every pane: id, name, project, the branch of its worktree (see 'skiff new --worktree'), session, the agent or program in front, its state (starting, working, idle, waiting, exited, or shell when no known agent is in front), whether it is unread (and why), folder and title. --json adds pid, generation, command, size, times, the person's keystroke count (person_inputs), the session's marks, and the pane's worktree (name, branch, path) and diff (files, added, removed: its changes against the base, counted after each turn end and by 'skiff diff'), or null, and host (null for a local pane). --all-hosts adds every host's panes with a HOST column, each host answering within 0.8 s or marked unreachable with why; it never waits longer for a host that is down, slow or hanging.",
  options: [
    {
      name: "mark",
      type: "string",
      value: "KEY[=VALUE]",
      help: "Only panes whose session has mark KEY (with VALUE, when given)",
    },
    {
      name: "all-hosts",
      type: "boolean",
      help: "Also list the panes of every host (see 'skiff host'), with a HOST column",
    },
  ],
  examples: ["skiff ls --mark skiff-agent --json", "skiff ls --all-hosts"],
  exits: ["DAEMON"],
  run: async (ctx) => {
    const mark = ctx.opts.mark === undefined ? undefined : parseMark(ctx.opts.mark);
    const all = ctx.opts["all-hosts"];
    const { local, hosts } = await withDaemon(async (client) => {
      // Asked together: the hosts' answer waits at most LIST_WAIT_MS, whatever they do.
      const [local, listed] = await Promise.all([
        client.call("pane.list", { mark }),
        all
          ? client.call("hosts.list", { connect: true, panes: true, wait_ms: LIST_WAIT_MS })
          : undefined,
      ]);
      return { local: local.panes, hosts: listed?.hosts ?? [] };
    });
    const panes: (PaneInfo & { host: string | null })[] = local.map((p) => ({ ...p, host: null }));
    for (const host of hosts) {
      for (const p of host.panes ?? []) {
        if (hasMark(p, mark)) panes.push({ ...p, host: host.host });
      }
    }
    const down = hosts.filter((h) => h.panes === null);
    const hostsJson = hosts.map((h) => ({
      host: h.host,
      state: h.panes === null && h.state === "up" ? "unreachable" : h.state,
      why: h.why,
      panes: h.panes?.length ?? null,
      last_up: h.last_up,
      next_try: h.next_try,
    }));
    ctx.out.result(all ? { panes, hosts: hostsJson } : { panes }, () => {
      if (panes.length === 0) {
        ctx.out.line(
          mark
            ? `No pane's session has mark ${ctx.opts.mark}.`
            : "No panes. Start one with 'skiff new'.",
        );
      } else {
        ctx.out.line(table(
          [
            ...(all ? ["HOST"] : []),
            "ID",
            "NAME",
            "PROJECT",
            "BRANCH",
            "SESSION",
            "FRONT",
            "STATE",
            "UNREAD",
            "CWD",
            "TITLE",
          ],
          panes.map((p) => [
            ...(all ? [p.host ?? "-"] : []),
            p.id,
            p.name,
            p.project ?? "-",
            p.worktree?.branch ?? "-",
            p.session_name,
            p.agent ?? frontOf(p),
            p.state,
            p.unread ? (p.unread_reasons.join(",") || "yes") : "-",
            p.host === null ? tildePath(p.cwd) : p.cwd,
            p.title,
          ]),
          { width: outputWidth() },
        ));
      }
      // When it was last reached and is tried next: an old failure is not told as current.
      for (const h of down) {
        const state = h.state === "up" ? "unreachable" : h.state;
        ctx.out.line(`${h.host}: ${state}: ${h.why} (${linkTimes(h)})`);
      }
    });
  },
});
