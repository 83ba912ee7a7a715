/**
 * The common shape of a command that talks to skiffd: connect (starting the
 * daemon if needed), do the work, close.
 *
 * @module
 */

import type { DaemonClient } from "./client.ts";
import { connectDaemon, type ConnectOptions } from "./connect.ts";

/** Runs `work` with a connection to skiffd and closes it afterwards. */
export async function withDaemon<T>(
  work: (client: DaemonClient) => Promise<T>,
  options: ConnectOptions = {},
): Promise<T> {
  const client = await connectDaemon(options);
  try {
    return await work(client);
  } finally {
    client.close();
  }
}
