/**
 * Running the dashboard in this terminal: it needs a terminal on both ends
 * and a skiffd (started when none runs), and gives the terminal back on
 * every way out, an error nobody caught included.
 *
 * @module
 */

import { connectDaemon } from "../client/connect.ts";
import { socketPath } from "../config/paths.ts";
import { SkiffError } from "../errors.ts";
import { askAhead, type AskedListing } from "../overview/listing.ts";
import { importLater } from "../platform/later.ts";
import type { DashOutcome } from "./dashboard.ts";

/** The terminal's rows: no list of the first screen is longer. */
function firstScreenRows(): number {
  try {
    return Math.max(1, Deno.consoleSize().rows);
  } catch {
    return 100;
  }
}

/** Options for {@linkcode runDashboard}. */
export interface DashOptions {
  /** skiffd's socket; by default the configured one. */
  socket?: string;
}

/**
 * Runs the dashboard in this terminal until the person quits (exit 0) or
 * skiffd stops for good (exit `DAEMON`, with a line saying so). Starts
 * skiffd when none runs. The terminal is given back on every way out.
 */
export async function runDashboard(options: DashOptions = {}): Promise<DashOutcome> {
  if (!Deno.stdin.isTerminal() || !Deno.stdout.isTerminal()) {
    throw new SkiffError("skiff dash needs a terminal on stdin and stdout", { exit: "USAGE" });
  }
  const socket = options.socket ?? socketPath();
  // The first listing is asked for right behind the hello, before the dashboard's code loads:
  // skiffd answers meanwhile. It holds only what the first screen shows (a thousand panes' whole
  // listing waits behind busy panes' output in skiffd); the whole one follows at once.
  const params = { first: firstScreenRows() };
  let asked: AskedListing | undefined;
  const client = await connectDaemon({ socket, ahead: (made) => asked = askAhead(made, params) });
  const first = asked ?? askAhead(client, params);
  const { Dashboard } = await importLater<typeof import("./dashboard.ts")>("lib/dash/dashboard.ts");
  const dashboard = new Dashboard(socket, client, { first });
  // An error nobody caught still gives the terminal back before the program ends.
  const onError = () => dashboard.close();
  globalThis.addEventListener("error", onError);
  globalThis.addEventListener("unhandledrejection", onError);
  try {
    return await dashboard.run();
  } finally {
    globalThis.removeEventListener("error", onError);
    globalThis.removeEventListener("unhandledrejection", onError);
  }
}
