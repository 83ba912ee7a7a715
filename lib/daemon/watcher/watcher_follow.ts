/**
 * Keeps the watcher running while the Skiff agent's session exists: it
 * starts when skiffd finds the session at its start and whenever a session
 * gets the mark (its lock keeps it to one), and after an upgrade to a new
 * version the watcher of the old program makes way for the new one's.
 *
 * @module
 */

import { fileLockHeld, lockHolderPid } from "../../platform/files.ts";
import type { RuntimeFiles } from "../../config/paths.ts";
import { SKIFF_AGENT_MARK } from "../../protocol/sessions.ts";
import { VERSION } from "../../version.ts";
import type { EventBus, SavedSession } from "../records/mod.ts";
import { startWatcher as startWatcherApart } from "./watcher_start.ts";

/** How long the watcher of an older program gets to end before a new one starts. */
const WATCHER_HANDOVER_MS = 5000;

/** Ends the watcher that runs (an older program's, after an upgrade) and waits until it is gone. */
async function replaceWatcher(files: RuntimeFiles, log: (line: string) => void): Promise<void> {
  if (!(await fileLockHeld(files.watchLock))) return;
  const pid = lockHolderPid(files.watchLock);
  if (pid === null) return;
  log(`ending the watcher of the skiff before the upgrade, pid ${pid}`);
  try {
    Deno.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + WATCHER_HANDOVER_MS;
  while (Date.now() < deadline && await fileLockHeld(files.watchLock)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What {@linkcode followSkiffAgent} needs. */
export interface FollowSkiffAgentOptions {
  /** The sessions skiffd starts with. */
  sessions: readonly SavedSession[];
  /** The event stream, for sessions marked later. */
  events: EventBus;
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
  /** The watcher that runs is an older program's (an upgrade to a new version): replace it. */
  replaceOld: boolean;
}

/** Starts the watcher now if the Skiff agent's session exists, and whenever one gets the mark. */
export function followSkiffAgent(files: RuntimeFiles, options: FollowSkiffAgentOptions): void {
  const { events, log } = options;
  const startWatcher = (why: string) => void startWatcherApart(files, why, log);
  if (options.sessions.some((s) => Object.hasOwn(s.marks, SKIFF_AGENT_MARK))) {
    if (options.replaceOld) {
      // The watcher runs the old program: the new one takes its place.
      void replaceWatcher(files, log).then(() => startWatcher(`skiffd is ${VERSION} now`));
    } else {
      startWatcher("the Skiff agent's session exists");
    }
  }
  events.subscribe((event) => {
    if (
      event.event === "session-marked" && event.key === SKIFF_AGENT_MARK && event.value !== null
    ) {
      startWatcher(`session ${event.session_name} is the Skiff agent's`);
    }
  });
}
