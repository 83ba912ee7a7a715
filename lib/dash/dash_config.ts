/**
 * What the dashboard reads from the config, after its first frame (the
 * config's code is not needed to draw it): the known agents' ids, which the
 * new-pane prompt offers, and how the detach key is named in the help.
 *
 * @module
 */

import { importLater } from "../platform/later.ts";

/** What {@linkcode readDashConfig} found. */
export interface DashConfig {
  /** The known agents' ids; none when the config cannot be read. */
  agents: string[];
  /** The detach key as the help names it; unset when the config cannot be read. */
  detachKey?: string;
}

/** Reads the agents' ids and the detach key; a config that cannot be read gives no agents. */
export async function readDashConfig(): Promise<DashConfig> {
  try {
    const { loadConfig } = await importLater<typeof import("../config/config.ts")>(
      "lib/config/config.ts",
    );
    const { AgentRegistry } = await importLater<typeof import("../agents/registry.ts")>(
      "lib/agents/registry.ts",
    );
    const { describeKey } = await importLater<typeof import("../config/attach_keys.ts")>(
      "lib/config/attach_keys.ts",
    );
    const config = loadConfig();
    const agents = new AgentRegistry({ document: config.document, file: config.file })
      .profiles.map((p) => p.id);
    return { agents, detachKey: describeKey(config.attach.detach) };
  } catch {
    return { agents: [] };
  }
}
