/**
 * The host's end of a link: `skiff host remote`, a hidden command that a
 * linking Skiff runs on the host over SSH. It starts the host's skiffd when
 * none runs (as any command does) and prints, as one JSON line, what the
 * link needs: the versions, the skiffd's socket, and the agents installed.
 *
 * @module
 */

import { startDaemon, tryConnect } from "../client/connect.ts";
import { quietSkewHint } from "../client/skew.ts";
import { socketPath } from "../config/paths.ts";
import { loadConfig } from "../config/config.ts";
import { AgentRegistry } from "../agents/registry.ts";
import { which } from "../platform/shell.ts";
import type { RemoteInfo } from "../protocol/hosts.ts";
import { VERSION } from "../version.ts";
import { REMOTE_MARK } from "./remote.ts";

/** Runs on the host: starts its skiffd when needed and describes it. */
export async function describeThisHost(): Promise<RemoteInfo & { [REMOTE_MARK]: 1 }> {
  // The linking side words any skew itself, naming the host.
  quietSkewHint();
  const socket = socketPath();
  const existing = await tryConnect(socket);
  const client = existing ?? await startDaemon(socket);
  const server = client.server!;
  const started = existing === undefined;
  client.close();
  const config = loadConfig();
  const registry = new AgentRegistry({ document: config.document, file: config.file });
  return {
    [REMOTE_MARK]: 1,
    version: VERSION,
    protocol: server.protocol,
    daemon_version: server.version,
    pid: server.pid,
    socket,
    started,
    agents: registry.profiles.map((p) => ({
      id: p.id,
      label: p.label,
      installed: which(p.command) ?? null,
    })),
  };
}
