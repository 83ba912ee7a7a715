/**
 * `skiff settings set KEY VALUE`: change one of the Skiff agent's settings.
 *
 * @module
 */

import { defineCommand } from "../../lib/cli/mod.ts";
import { setSetting, SETTING_KEYS } from "../../lib/skipper/mod.ts";

/** The `settings set` command. */
export const command = defineCommand({
  name: "set",
  summary: "Change one setting of the Skiff agent",
  description:
    "Check VALUE and write KEY under [skiff_agent] in projects.toml, keeping the rest of the file as it was. enabled and continue take true or false; agent takes an id from 'skiff agents'; name takes up to 40 letters, digits, spaces, '.', '_' and '-'; folder takes an absolute path or one that starts with ~/, in a place the Skiff agent may use; land takes ask (the Skiff agent asks the person before it lands a worker's branch with 'skiff land', the default) or auto (it lands once the checks pass, and tells the person after). A bad value changes nothing. To move the agent's files to a new folder, use 'skiff skipper --move-to PATH' instead.",
  args: [
    { name: "KEY", required: true, help: "The setting", choices: SETTING_KEYS },
    { name: "VALUE", required: true, help: "Its new value" },
  ],
  examples: [
    "skiff settings set enabled true",
    "skiff settings set agent codex",
    "skiff settings set folder ~/agents/skipper",
    "skiff settings set land auto",
  ],
  exits: [
    ["USAGE", "Bad key or value, or a broken projects.toml; nothing was changed"],
    ["DATA", "projects.toml cannot be read or written"],
  ],
  run: async (ctx) => {
    const key = ctx.args.KEY;
    const report = await setSetting(key, ctx.args.VALUE);
    ctx.out.result(
      report,
      () => ctx.out.line(`${key} = ${report.settings[key as keyof typeof report.settings]}`),
    );
  },
});
