/**
 * `skiff attach HOST:PANE`: the local attach (`lib/client/attach.ts`: raw
 * mode, the redraw, resizes, the detach and history keys, following the
 * far skiffd through a reload or a restart) over the link's socket. The
 * attach holds the link while it lasts. When the link goes and does not
 * come back, it ends with one line that names the host and says the pane
 * keeps running there, and exit `UNREACHABLE`.
 *
 * @module
 */

import {
  attachEndLine,
  type AttachOutcome,
  attachTerminal,
  type AttachTerminalOptions,
} from "../client/attach.ts";
import { markLinkSocket } from "../client/client.ts";
import { connectDaemon } from "../client/connect.ts";
import type { HostLink } from "../protocol/hosts.ts";
import { linkError, linkTo, parsePaneRef } from "./resolve.ts";

/** How long an attach whose link went waits for it to be made again. */
const RELINK_MS = 15_000;

/** How an attach to a pane anywhere ended; `host` is null for a local pane. */
export interface PaneAttachOutcome extends AttachOutcome {
  /** The pane's host, or null. */
  host: string | null;
}

/** Why the link to `host` is down now, in the local skiffd's words, or "" when it says nothing. */
async function linkWhy(host: string): Promise<string> {
  try {
    const local = await connectDaemon({ start: false });
    try {
      const link: HostLink = await local.call("hosts.link", { host, wait_ms: 0 });
      return link.why ?? "";
    } finally {
      local.close();
    }
  } catch {
    return "";
  }
}

/**
 * Attaches this terminal to pane `ref` (`PANE`, `HOST:PANE`, or none: the
 * local pane used last) until the person detaches or the pane ends.
 */
export async function attachPane(
  ref: string | undefined,
  options: AttachTerminalOptions = {},
): Promise<PaneAttachOutcome> {
  const address = ref === undefined ? { host: null, pane: undefined } : parsePaneRef(ref);
  const host = address.host;
  if (host === null) return { ...await attachTerminal(address.pane, options), host: null };
  let { link, holder } = await linkTo(host, { hold: true });
  let pane = address.pane;
  try {
    if (link.state !== "up" || link.socket === null) throw linkError(link);
    for (;;) {
      markLinkSocket(link.socket!, host);
      const outcome = await attachTerminal(pane, {
        ...options,
        socket: link.socket!,
        start: false,
      });
      const here = `${outcome.name} (${outcome.pane})`;
      const there = `${host}:${here}`;
      if (outcome.reason !== "lost") {
        const line = attachEndLine(outcome, `skiff attach ${host}:${outcome.name}`)
          .replace(here, there);
        return { ...outcome, host, line };
      }
      // The link went and did not come back by itself (the local skiffd restarted, or the
      // network dropped): make it once more, and attach again if the host answers.
      holder?.close();
      const again = await linkTo(host, { hold: true, waitMs: RELINK_MS, start: false })
        .catch(() => undefined);
      holder = again?.holder;
      if (again?.link.state === "up" && again.link.socket !== null) {
        link = again.link;
        pane = outcome.pane;
        continue;
      }
      const why = again?.link.why ?? await linkWhy(host);
      const line = `[lost the link to ${host}${
        why.replace(/^(.)/, ": $1")
      }; ${there} keeps running there]`;
      return { ...outcome, host, line };
    }
  } finally {
    holder?.close();
  }
}
