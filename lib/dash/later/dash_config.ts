/**
 * What the dashboard reads from the config after its first frame: the known
 * agents' ids, which the new-pane prompt offers, and how the detach key is
 * named in the help. It loads with the dashboard's later parts
 * (`later/mod.ts`), so its imports are not in the first frame's way.
 *
 * @module
 */

import { loadConfig } from "../../config/config.ts";
import { AgentRegistry } from "../../agents/registry.ts";
import { describeKey } from "../../config/attach_keys.ts";

/** What {@linkcode readDashConfig} found. */
export interface DashConfig {
  /** The known agents' ids; none when the config cannot be read. */
  agents: string[];
  /** The detach key as the help names it; unset when the config cannot be read. */
  detachKey?: string;
}

/** Reads the agents' ids and the detach key; a config that cannot be read gives no agents. */
export function readDashConfig(): DashConfig {
  try {
    const config = loadConfig();
    const agents = new AgentRegistry({ document: config.document, file: config.file })
      .profiles.map((p) => p.id);
    return { agents, detachKey: describeKey(config.attach.detach) };
  } catch {
    return { agents: [] };
  }
}
