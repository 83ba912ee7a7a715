/**
 * `skiff host`: the other machines Skiff reaches over SSH. Each subcommand
 * lives in `cmd/host/`.
 *
 * @module
 */

import type { CommandSpec } from "../lib/cli/mod.ts";
import { command as add } from "./host/add.ts";
import { command as check } from "./host/check.ts";
import { command as ls } from "./host/ls.ts";
import { command as remote } from "./host/remote.ts";
import { command as rm } from "./host/rm.ts";

/** The `host` command group. */
export const command: CommandSpec = {
  name: "host",
  summary: "Add, list, check or remove other hosts (reached over SSH)",
  description:
    "Hosts live in projects.toml as [hosts.NAME] tables: an SSH destination, and optionally the skiff program and socket on the host and more ssh options. Each host runs its own skiffd; the local skiffd holds one SSH link to each host in use, and HOST:PANE names a pane there.",
  subcommands: [add, ls, check, rm, remote],
};
