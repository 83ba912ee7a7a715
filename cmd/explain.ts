/**
 * `skiff explain`: say which agent is in a pane, what each signal says, and why.
 *
 * @module
 */

import { defineCommand, PANE_ARG } from "../lib/cli/mod.ts";
import { resumeLines } from "../lib/client/format.ts";
import { withPane } from "../lib/hosts/resolve.ts";

/** The `explain` command. */
export const command = defineCommand({
  name: "explain",
  summary: "Show which agent is in a pane, each signal that fired, and the state",
  args: [PANE_ARG],
  exits: [
    ["UNREACHABLE", "HOST (in HOST:PANE) cannot be reached, or the link was lost"],
    "NOT_FOUND",
    "DAEMON",
  ],
  run: async (ctx) => {
    const r = await withPane(
      ctx.args.PANE,
      (client, pane) => client.call("pane.explain", { pane }),
    );
    ctx.out.result(r, () => {
      const agent = r.agent_label ?? "no known agent";
      ctx.out.line(`${r.name} (${r.id}): ${agent}, state ${r.state}${r.unread ? ", unread" : ""}`);
      for (const signal of r.signals) {
        const text = signal.text ? `: ${JSON.stringify(signal.text.slice(0, 80))}` : "";
        ctx.out.line(`  ${signal.source.padEnd(8)} ${signal.rule} → ${signal.says}${text}`);
      }
      const composer = r.composer;
      if (composer) {
        ctx.out.line(
          `  input box ${
            composer.visible
              ? (composer.draft
                ? `holds a draft: ${JSON.stringify(composer.draft.slice(0, 60))}`
                : "shows, empty")
              : "does not show"
          }`,
        );
      }
      const hook = r.hook;
      if (hook) {
        ctx.out.line(
          `  last hook ${hook.event} (${hook.state}) ${
            Math.round((Date.now() - hook.at) / 1000)
          } s ago`,
        );
      }
      for (const line of resumeLines(r)) ctx.out.line(`  ${line}`);
    });
  },
});
