/**
 * `skiff ledger`: the Skiff agent's task ledger. Each subcommand lives in
 * `cmd/ledger/`; the library is `lib/ledger/`.
 *
 * @module
 */

import type { CommandSpec } from "../lib/cli/mod.ts";
import { command as add } from "./ledger/add.ts";
import { command as done } from "./ledger/done.ts";
import { command as ls } from "./ledger/ls.ts";
import { command as rm } from "./ledger/rm.ts";
import { command as send } from "./ledger/send.ts";
import { command as show } from "./ledger/show.ts";
import { command as update } from "./ledger/update.ts";

/** The `ledger` command group. */
export const command: CommandSpec = {
  name: "ledger",
  summary: "The Skiff agent's task ledger",
  description:
    "The Skiff agent's record of tasks: ledger.db in its folder ([skiff_agent] folder in projects.toml, default ~/skiff-agent), or the file SKIFF_LEDGER names. It is made on first use. A row is named by its row ID, its uid, or the first 4 or more characters of its uid.",
  subcommands: [add, send, ls, show, update, done, rm],
};
