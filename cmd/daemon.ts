/**
 * `skiff daemon`: run, start, stop, restart, reload and inspect skiffd. Each
 * subcommand lives in `cmd/daemon/`.
 *
 * @module
 */

import type { CommandSpec } from "../lib/cli/mod.ts";
import { command as reload } from "./daemon/reload.ts";
import { command as restart } from "./daemon/restart.ts";
import { command as run } from "./daemon/run.ts";
import { command as start } from "./daemon/start.ts";
import { command as status } from "./daemon/status.ts";
import { command as stop } from "./daemon/stop.ts";
import { command as upgrade } from "./daemon/upgrade.ts";

/** The `daemon` command group. */
export const command: CommandSpec = {
  name: "daemon",
  summary: "Run, start, stop, restart, upgrade, reload or inspect skiffd",
  description:
    "skiffd owns the panes. Any command that needs it starts it when none answers, so you rarely need these.",
  subcommands: [status, start, stop, restart, upgrade, reload, run],
};
