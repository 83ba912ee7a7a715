/**
 * The dynamic values shell completion offers: pane and session names from a
 * running skiffd (never started for this), projects from the config, agent
 * ids, and the uids of open ledger tasks. Any failure offers nothing.
 *
 * @module
 */

import { pathExists } from "../platform/files.ts";
import { tryConnect } from "../client/connect.ts";
import { loadConfig } from "../config/config.ts";
import type { CompleteKind } from "./spec.ts";

async function fromDaemon(kind: "pane" | "session"): Promise<string[]> {
  const client = await tryConnect();
  if (!client) return [];
  try {
    if (kind === "pane") {
      const { panes } = await client.call("pane.list");
      return panes.flatMap((p) => [p.name, p.id]);
    }
    const { sessions } = await client.call("session.list");
    return sessions.map((s) => s.name);
  } finally {
    client.close();
  }
}

async function openTasks(): Promise<string[]> {
  const { agentLedgerPath } = await import("../tasks/ledger_file.ts");
  const path = agentLedgerPath();
  if (!pathExists(path)) return [];
  const { openLedger } = await import("../ledger/mod.ts");
  using ledger = openLedger(path);
  return ledger.list({}, null).entries.flatMap((
    e,
  ) => [e.row.uid, ...(e.tasks ?? []).map((t) => t.row.uid)]);
}

/** The worktrees Skiff made, from skiffd's records (read, never changed): NAME and PROJECT/NAME. */
async function worktreeNames(): Promise<string[]> {
  const { worktreesFile } = await import("../config/paths.ts");
  const data = JSON.parse(Deno.readTextFileSync(worktreesFile()));
  return (data.worktrees as { project: string; name: string }[]).flatMap((w) => [
    w.name,
    `${w.project}/${w.name}`,
  ]);
}

/** The values of `kind` for completion. */
export async function completionValues(kind: CompleteKind): Promise<string[]> {
  switch (kind) {
    case "pane":
    case "session":
      return await fromDaemon(kind);
    case "project":
      return loadConfig().projects.map((p) => p.name);
    case "agent": {
      const { AgentRegistry } = await import("../agents/registry.ts");
      const config = loadConfig();
      return new AgentRegistry(config).profiles.map((p) => p.id);
    }
    case "task":
      return await openTasks();
    case "worktree":
      return await worktreeNames();
    case "shell":
      return ["bash", "zsh", "fish"];
    default:
      return [];
  }
}
