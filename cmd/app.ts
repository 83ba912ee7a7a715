/**
 * `skiff app`: print the address of the app that skiffd serves, and open it
 * in a browser where there is one.
 *
 * @module
 */

import { defineCommand, SkiffError } from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";

/** The `app` command. */
export const command = defineCommand({
  name: "app",
  summary: "Open the app: the Skiff agent, the panes as terminals, the ledger and Settings",
  description:
    "skiffd serves the app on 127.0.0.1 (starting skiffd when it does not run). This prints its address, with the token every request needs, and opens it in your browser when there is one (xdg-open with a display, or open on macOS); without one, open the address yourself, for example through 'ssh -L PORT:127.0.0.1:PORT HOST'. The port and the token are kept in the state folder, so the address stays the same across restarts. --port moves the app to another port and keeps it there.",
  options: [
    {
      name: "port",
      type: "number",
      value: "N",
      help: "Serve the app on port N from now on",
    },
    { name: "no-open", type: "boolean", help: "Print the address only; do not open a browser" },
  ],
  examples: ["skiff app", "skiff app --no-open", "skiff app --port 8765"],
  exits: [
    ["USAGE", "A bad port"],
    "DAEMON",
    ["CONFLICT", "The port is taken; the app stays where it was"],
  ],
  run: async (ctx) => {
    const port = ctx.opts.port;
    if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535)) {
      throw new SkiffError(`Bad port '${port}': use a whole number from 1 to 65535`, {
        exit: "USAGE",
      });
    }
    const status = await withDaemon((client) =>
      client.call("app.status", port === undefined ? {} : { port })
    );
    const { openInBrowser } = await import("../lib/app/browser.ts");
    const opened = ctx.opts["no-open"]
      ? { opened: false, why: "--no-open" }
      : await openInBrowser(status.url);
    ctx.out.result({ ...status, opened: opened.opened, why: opened.why }, () => {
      ctx.out.line(status.url);
      if (opened.opened) {
        ctx.out.notice("Opened in your browser.");
      } else if (opened.why !== "--no-open") {
        ctx.out.notice(
          `No browser here (${opened.why}). Open the address above, or from another machine: ssh -L ${status.port}:127.0.0.1:${status.port} THIS-HOST`,
        );
      }
    });
  },
});
