/**
 * `skiff ls`: list panes.
 *
 * @module
 */

// By file, not through lib/cli/mod.ts: agents list panes often, and each module loaded is time.
import { defineCommand } from "../lib/cli/spec.ts";
import { table, terminalWidth } from "../lib/cli/output.ts";
import { frontOf, tildePath } from "../lib/client/format.ts";
import { listPanes } from "../lib/ops/list_panes.ts";
import { importLater } from "../lib/platform/later.ts";

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
    const all = ctx.opts["all-hosts"];
    const listed = await listPanes({ mark: ctx.opts.mark, allHosts: all });
    const { panes } = listed;
    const down = (listed.hosts ?? []).filter((h) => h.panes === null);
    // When it was last reached and is tried next: an old failure is not told as current.
    const downLines: string[] = [];
    if (down.length > 0) {
      // Loaded only when a host is down: a local listing never needs it.
      const { linkTimes } = await importLater<typeof import("../lib/hosts/link_times.ts")>(
        "lib/hosts/link_times.ts",
      );
      for (const h of down) downLines.push(`${h.host}: ${h.state}: ${h.why} (${linkTimes(h)})`);
    }
    ctx.out.result(listed, () => {
      if (panes.length === 0) {
        ctx.out.line(
          ctx.opts.mark !== undefined
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
            p.worktree
              ? `${p.worktree.branch}${p.worktree.landed && p.worktree.merged ? " (landed)" : ""}`
              : "-",
            p.session_name,
            p.agent ?? frontOf(p),
            p.state,
            p.unread ? (p.unread_reasons.join(",") || "yes") : "-",
            p.host === null ? tildePath(p.cwd) : p.cwd,
            p.title,
          ]),
          { width: terminalWidth() },
        ));
      }
      for (const line of downLines) ctx.out.line(line);
    });
  },
});
