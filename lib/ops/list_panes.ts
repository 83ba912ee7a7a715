/**
 * Listing panes, as `skiff ls` and the `list_panes` tool do: this
 * machine's, and with `allHosts` every host's, each host answering within
 * {@linkcode LIST_WAIT_MS} or counted unreachable.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { type SkiffdAccess, withSkiffd } from "../hosts/resolve.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import type { HostState } from "../protocol/hosts.ts";

/** How long `allHosts` waits for the hosts, at most: a host that is slower is unreachable. */
export const LIST_WAIT_MS = 800;

/** A session mark to filter on: its key, and its value when one is asked for. */
export interface PaneMark {
  /** The mark's key. */
  key: string;
  /** The value it must have, if any. */
  value?: string;
}

/** A listed pane: the pane, and its host (null for a local pane). */
export type ListedPane = PaneInfo & { host: string | null };

/** A host's line in `skiff ls --all-hosts --json`. */
export interface ListedHost {
  /** The host's name. */
  host: string;
  /** Its link's state, or `unreachable` when it did not list its panes. */
  state: HostState | "unreachable";
  /** Why it is not up, or null. */
  why: string | null;
  /** How many of its panes the listing holds (those of the mark and project asked for), or null. */
  panes: number | null;
  /** When it was last reached (ISO 8601), or null when it never was. */
  last_up: string | null;
  /** When its link is tried next (ISO 8601), or null when no try waits. */
  next_try: string | null;
}

/** What `skiff ls --json` prints (`hosts` only with `allHosts`). */
export interface ListPanesResult {
  /** The panes. */
  panes: ListedPane[];
  /** Each host, with `allHosts`. */
  hosts?: ListedHost[];
}

/** Options for {@linkcode listPanes}. */
export interface ListPanesOptions {
  /** Only panes whose session has this mark: `KEY` or `KEY=VALUE`. */
  mark?: string;
  /** Also list every host's panes. */
  allHosts?: boolean;
  /** Only panes of this project. */
  project?: string;
  /** Where connections come from (default: one for this call). */
  access?: SkiffdAccess;
}

/** Reads `KEY` or `KEY=VALUE` (`USAGE` for an empty key). */
export function parseMark(text: string): PaneMark {
  const eq = text.indexOf("=");
  const key = eq === -1 ? text : text.slice(0, eq);
  if (key === "") {
    throw new SkiffError(`Bad mark '${text}': use KEY or KEY=VALUE`, { exit: "USAGE" });
  }
  return eq === -1 ? { key } : { key, value: text.slice(eq + 1) };
}

/** Whether pane `p`'s session has the mark asked for (or none was asked for). */
function hasMark(p: PaneInfo, mark: PaneMark | undefined): boolean {
  if (!mark) return true;
  const value = p.session_marks[mark.key];
  return value !== undefined && (mark.value === undefined || value === mark.value);
}

/** Lists the panes and returns what `skiff ls --json` prints. */
export async function listPanes(options: ListPanesOptions = {}): Promise<ListPanesResult> {
  const mark = options.mark === undefined ? undefined : parseMark(options.mark);
  const all = options.allHosts ?? false;
  const { local, hosts } = await withSkiffd(null, async (client) => {
    // Asked together: the hosts' answer waits at most LIST_WAIT_MS, whatever they do.
    const [local, listed] = await Promise.all([
      client.call("pane.list", { mark }),
      all
        ? client.call("hosts.list", { connect: true, panes: true, wait_ms: LIST_WAIT_MS })
        : undefined,
    ]);
    return { local: local.panes, hosts: listed?.hosts ?? [] };
  }, { access: options.access });
  const inProject = (p: PaneInfo) => options.project === undefined || p.project === options.project;
  const panes: ListedPane[] = [];
  for (const p of local) if (inProject(p)) panes.push({ ...p, host: null });
  // Each host's count is of the panes it lists here: a scope's or a mark's, not all of its own.
  const counts = new Map<string, number>();
  for (const host of hosts) {
    for (const p of host.panes ?? []) {
      if (!hasMark(p, mark) || !inProject(p)) continue;
      panes.push({ ...p, host: host.host });
      counts.set(host.host, (counts.get(host.host) ?? 0) + 1);
    }
  }
  if (!all) return { panes };
  return {
    panes,
    hosts: hosts.map((h) => ({
      host: h.host,
      state: h.panes === null && h.state === "up" ? "unreachable" : h.state,
      why: h.why,
      panes: h.panes === null ? null : counts.get(h.host) ?? 0,
      last_up: h.last_up,
      next_try: h.next_try,
    })),
  };
}
