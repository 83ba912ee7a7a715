/**
 * A new skiffd taking the panes over in place (`skiff daemon upgrade`): the
 * busy panes first, then the socket, the commit point, and the rest of the
 * panes, with the outcome told in the log and as an event.
 *
 * @module
 */

import { VERSION } from "../../version.ts";
import {
  adoptionOrder,
  type AdoptMarks,
  adoptPane,
  adoptRest,
  commitAdoption,
  faultAt,
  type StartMode,
} from "./adopt.ts";
import type { EventBus } from "../records/mod.ts";
import type { Server, UpgradeStep } from "../server/mod.ts";
import type { LiveWorkspace } from "../workspace/mod.ts";
import type { Ownership } from "../runtime/mod.ts";
import type { Upgrader } from "./upgrade.ts";

/** How far a new program got in taking over in place (see `adopt.ts`). */
export interface Adopting {
  /** Whether it committed: it owns every pane, and a failure no longer gives them back. */
  committed: boolean;
  /** The step under way. */
  step: UpgradeStep;
  /** When it reached each point (ms since the epoch), for the outcome's timings. */
  marks: AdoptMarks;
}

/** The parts of the new skiffd that {@linkcode takeOver} works with. */
export interface TakeOverParts {
  /** Sessions and panes. */
  workspace: LiveWorkspace;
  /** The socket's server, not yet listening. */
  server: Server;
  /** Who owns the socket's path. */
  ownership: Ownership;
  /** Keeps the upgrade's outcome. */
  upgrader: Upgrader;
  /** The event stream. */
  events: EventBus;
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
}

/**
 * Takes every pane of the skiffd before this one over, recording the
 * progress in `adopting` so that a failure before the commit can give the
 * panes back.
 */
export async function takeOver(
  mode: Extract<StartMode, { kind: "adopt" }>,
  adopting: Adopting,
  parts: TakeOverParts,
): Promise<void> {
  const { workspace, server, ownership, upgrader, events, log } = parts;
  faultAt(mode, "adopt");
  adopting.marks.read = Date.now();
  const order = adoptionOrder(mode.handoff);
  const handed = new Map(mode.handoff.panes.map((p) => [p.id, p]));
  const hot = order.hot.map((id) => adoptPane(workspace, handed.get(id)!));
  adopting.marks.adopted = Date.now();
  adopting.step = "listen";
  faultAt(mode, "listen");
  // Requests wait until every pane is taken over; hello is answered at once.
  server.gate();
  await server.listenFd(mode.handoff.fds.listener);
  ownership.listening();
  ownership.start();
  // The commit point: from here on this program owns every pane.
  const outcome = commitAdoption(mode, hot, adopting.marks);
  adopting.committed = true;
  upgrader.took(outcome);
  const rest = await adoptRest(workspace, mode.handoff, order.rest, log);
  outcome.ms.freeze_all = Date.now() - (mode.handoff.timings.freeze_at ?? Date.now());
  server.open();
  log(
    outcome.ok
      ? `upgrade ${outcome.id}: skiffd ${outcome.from} → ${VERSION}, ${outcome.panes} panes ` +
        `taken over; output stood still ${outcome.ms.freeze ?? "?"} ms (${hot.length} busy ` +
        `panes), ${outcome.ms.freeze_all} ms (all)`
      : `upgrade ${outcome.id} undone: ${outcome.error}`,
  );
  if (outcome.ok) {
    events.emit("daemon-upgraded", {
      from_version: outcome.from,
      version: VERSION,
      pid: Deno.pid,
      panes: outcome.panes,
    });
  }
  for (const pane of [...hot, ...rest]) workspace.watches.get(pane)?.evaluate();
}
