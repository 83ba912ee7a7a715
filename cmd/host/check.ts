/**
 * `skiff host check`: link to a host and say how it is.
 *
 * @module
 */

import { defineCommand, Exit, reportError } from "../../lib/cli/mod.ts";
import { checkHost } from "../../lib/hosts/check.ts";

/** The `host check` command. */
export const command = defineCommand({
  name: "check",
  summary: "Link to a host: reachable, its version, the round trip, its agents",
  description:
    "Make the link to NAME (the local skiffd holds it; the host's skiffd starts when it does not run) and report: whether it is reachable, the host's Skiff version, the round trip of a request over the link (timed on one connection, not a program's start), and the agents installed on the host.",
  args: [{ name: "NAME", required: true, help: "A host of 'skiff host ls'" }],
  examples: ["skiff host check gpu1"],
  exits: [
    ["NOT_FOUND", "No such host, or no skiff on it"],
    "DAEMON",
    "UNREACHABLE",
    ["PROTOCOL", "The host's Skiff is too old, or speaks another protocol"],
  ],
  run: async (ctx) => {
    const { check, error } = await checkHost(ctx.args.NAME);
    ctx.out.result(check, () => {
      if (!check.reachable) {
        ctx.out.line(`${check.host} (ssh ${check.ssh}): ${check.state}`);
        return;
      }
      const remote = check.remote!;
      ctx.out.line(`${check.host} (ssh ${check.ssh}): reachable`);
      ctx.out.line(
        `  Skiff ${remote.daemon_version} (skiffd pid ${remote.pid}, protocol ${remote.protocol}), this skiff ${check.local_version}`,
      );
      if (check.skew) ctx.out.line(`  ${check.skew}`);
      ctx.out.line(
        `  round trip over the link: ${check.rtt_ms} ms (median of ${check.rtt_samples.length})`,
      );
      ctx.out.line(`  socket on the host: ${remote.socket}; ${check.panes} pane(s)`);
      const installed = remote.agents.filter((a) => a.installed);
      ctx.out.line(
        `  agents installed: ${
          installed.length === 0 ? "none" : installed.map((a) => a.id).join(", ")
        }`,
      );
    });
    if (error) return reportError(error, ctx.json);
    return Exit.OK;
  },
});
