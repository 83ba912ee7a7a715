/**
 * The page's methods (see `api.ts`), answered with the same code the CLI
 * runs: `lib/skipper` for the Skiff agent, its settings and its folder,
 * the ledger through `openAgentLedger`, a worktree's diff and landing as
 * `skiff diff` and `skiff land` do, and skiffd through the protocol.
 *
 * @module
 */

import { AgentRegistry } from "../agents/registry.ts";
import { loadConfig } from "../config/config.ts";
import { isFolderSetting } from "../config/tables.ts";
import { SkiffError } from "../errors.ts";
import {
  moveLines,
  moveSkiffAgent,
  openSkiffAgent,
  readSettings,
  setSetting,
} from "../skipper/mod.ts";
import { readLedgerView } from "../overview/ledger.ts";
import { WorkspaceReader } from "../overview/workspace.ts";
import type { ApiMethodName, ApiMethods, LedgerView, SettingsView, WorkspaceView } from "./api.ts";
import type { DaemonLink } from "./daemon_link.ts";
import type { SkiffdAccess } from "../hosts/resolve.ts";
import { markSeen } from "../ops/mark_seen.ts";
import type { FollowMember } from "./follow.ts";
import { diffView, landPane } from "./worktree_handlers.ts";

/**
 * How long a page's read of the ledger waits for a lock that another process
 * holds. The app runs inside skiffd, and SQLite waits by blocking, so the
 * wait is short: the page says the ledger is locked, and reads again when
 * the lock goes.
 */
export const LEDGER_READ_WAIT_MS = 250;

/** A page method's handler: params as they came from the page. */
export type Handler<M extends ApiMethodName> = (
  params: Record<string, unknown>,
) => Promise<ApiMethods[M]["result"]>;

/** Every page method's handler. */
export type Handlers = { [M in ApiMethodName]: Handler<M> };

function text(params: Record<string, unknown>, key: string): string {
  const value = params[key];
  if (typeof value !== "string") {
    throw new SkiffError(`Bad request: '${key}' must be a string`, { exit: "USAGE" });
  }
  return value;
}

function settingsView(): SettingsView {
  const config = loadConfig();
  const registry = new AgentRegistry(config);
  return {
    ...readSettings(config),
    agents: registry.profiles.map((p) => ({ id: p.id, label: p.label })),
  };
}

/** The page's connection to the local skiffd, as the operations take connections. */
function onPage(link: DaemonLink): SkiffdAccess {
  return { open: async () => ({ client: await link.client(), release: () => {} }) };
}

/** Options for {@linkcode pageHandlers}. */
export interface PageHandlersOptions {
  /** The page as the followers see it, for `follow`. */
  member?: FollowMember;
}

/** The handlers for one page, talking to skiffd through `link`. */
export function pageHandlers(link: DaemonLink, options: PageHandlersOptions = {}): Handlers {
  // While projects.toml is broken, the sidebar keeps what it last read (or the defaults).
  const reader = new WorkspaceReader();
  return {
    workspace: async (): Promise<WorkspaceView> => ({
      ...await reader.read(await link.client()),
      hosts: options.member?.hosts() ?? [],
    }),

    seen: (params) => {
      const pane = text(params, "pane");
      // A local pane is marked on the page's connection; one of another host (HOST:ID) there,
      // through its link.
      return markSeen(pane, {
        start: false,
        access: pane.includes(":") ? undefined : onPage(link),
      });
    },

    "skipper.open": async () => {
      const opened = await openSkiffAgent({ client: await link.client() });
      return { pane: opened.pane, how: opened.how, start: opened.start };
    },

    settings: () => Promise.resolve(settingsView()),

    "settings.set": async (params) => {
      await setSetting(text(params, "key"), text(params, "value"));
      return settingsView();
    },

    move: async (params) => {
      const path = text(params, "path").trim();
      if (!isFolderSetting(path)) {
        throw new SkiffError(`'${path}' must be an absolute path or start with ~/`, {
          exit: "USAGE",
        });
      }
      const outcome = await moveSkiffAgent(path, { dryRun: params.dry_run === true });
      return { outcome, lines: moveLines(outcome) };
    },

    ledger: async (): Promise<LedgerView> => {
      const { panes } = await (await link.client()).call("pane.list");
      return readLedgerView(panes, {
        timeout: LEDGER_READ_WAIT_MS,
        hosts: options.member?.hosts() ?? [],
        sawLock: () => options.member?.sawLock(),
      });
    },

    diff: async (params) => diffView(await link.client(), text(params, "pane")),

    land: async (params) =>
      landPane(await link.client(), text(params, "pane"), { dryRun: params.dry_run === true }),

    follow: (params) => {
      const ledger = params.ledger === true;
      options.member?.follow({ ledger });
      return Promise.resolve({ ledger });
    },
  };
}
