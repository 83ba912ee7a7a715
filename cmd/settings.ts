/**
 * `skiff settings`: show the Skiff agent's settings; `skiff settings set`
 * (in `cmd/settings/set.ts`) changes one.
 *
 * @module
 */

import { defineCommand } from "../lib/cli/mod.ts";
import { readSettings } from "../lib/skipper/mod.ts";
import { command as set } from "./settings/set.ts";
import { settingsLines } from "./settings/format.ts";

/** The `settings` command. */
export const command = defineCommand({
  name: "settings",
  summary: "Show or change the Skiff agent's settings",
  description:
    "Show the Skiff agent's settings ([skiff_agent] in projects.toml) with their defaults filled in, and whether its folder can be used (and if not, why). 'skiff settings set KEY VALUE' changes one.",
  subcommands: [set],
  exits: [["DATA", "projects.toml cannot be read"]],
  run: (ctx) => {
    const report = readSettings();
    ctx.out.result(report, () => ctx.out.line(settingsLines(report).join("\n")));
  },
});
