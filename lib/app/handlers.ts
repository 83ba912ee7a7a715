/**
 * The page's methods (see `api.ts`), answered with the same code the CLI
 * runs: `lib/skipper` for the Skiff agent, its settings and its folder,
 * the ledger through `openAgentLedger`, and skiffd through the protocol.
 *
 * @module
 */

import { existsSync } from "node:fs";
import { AgentRegistry } from "../agents/registry.ts";
import { isFolderSetting, loadConfig } from "../config/config.ts";
import { SkiffError } from "../errors.ts";
import { listToJson, type PaneLiveness } from "../ledger/mod.ts";
import {
  ledgerPlace,
  moveLines,
  moveSkiffAgent,
  openAgentLedger,
  openSkiffAgent,
  readSettings,
  setSetting,
} from "../skipper/mod.ts";
import type { ApiMethodName, ApiMethods, LedgerView, SettingsView, WorkspaceView } from "./api.ts";
import type { DaemonLink } from "./daemon_link.ts";

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
  const registry = new AgentRegistry({ document: config.document, file: config.file });
  return {
    ...readSettings(config),
    agents: registry.profiles.map((p) => ({ id: p.id, label: p.label })),
  };
}

/** The handlers for one page, talking to skiffd through `link`. */
export function pageHandlers(link: DaemonLink): Handlers {
  return {
    workspace: async (): Promise<WorkspaceView> => {
      const client = await link.client();
      const [{ panes }, { sessions }, watcher] = await Promise.all([
        client.call("pane.list"),
        client.call("session.list"),
        client.call("watch.status"),
      ]);
      const config = loadConfig();
      return {
        panes,
        sessions,
        projects: config.projects.map((p) => ({ name: p.name, root: p.root })),
        watcher,
        skipper: {
          enabled: config.skiffAgent.enabled,
          name: config.skiffAgent.name,
          agent: config.skiffAgent.agent,
        },
      };
    },

    seen: async (params) => (await link.client()).call("pane.seen", { pane: text(params, "pane") }),

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
      const place = ledgerPlace();
      const { panes } = await (await link.client()).call("pane.list");
      const liveness = new Map<string, PaneLiveness>(
        panes.map((p) => [p.id, { generation: p.generation }]),
      );
      const exists = existsSync(place.path);
      using ledger = openAgentLedger();
      const list = listToJson(ledger.list({ all: true }, liveness));
      return { path: place.path, exists, ...list };
    },
  };
}
