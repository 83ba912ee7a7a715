/**
 * `skiff new`: start a pane.
 *
 * @module
 */

import { resolve } from "node:path";
import { type CommandSpec, optList, optString, parseEnvPairs, parseSize } from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";
import type { PaneInfo } from "../lib/daemon/pane_info.ts";

/** The `new` command. */
export const command: CommandSpec = {
  name: "new",
  summary: "Start a pane running a shell or a command",
  description:
    "Start a pane and print its id. Without a command it runs your login shell. In a project, it starts in the project's root and runs the project's command, if one is set.",
  options: [
    {
      name: "project",
      short: "p",
      type: "string",
      value: "P",
      help: "Start the pane in project P",
    },
    { name: "name", short: "n", type: "string", value: "N", help: "Name the pane N (unique)" },
    { name: "session", short: "s", type: "string", value: "S", help: "Join session S, or make it" },
    { name: "cwd", short: "c", type: "string", value: "DIR", help: "Start in folder DIR" },
    { name: "size", type: "string", value: "COLSxROWS", help: "Terminal size (default 120x40)" },
    { name: "env", short: "e", type: "list", value: "K=V", help: "Set an environment variable" },
  ],
  passthrough: "COMMAND ARGS…",
  examples: [
    "skiff new --name web -- npm run dev",
    "skiff new --project api --name reviewer -- claude",
  ],
  exitCodes: [[3, "No such project"], [4, "skiffd could not be reached"], [5, "The name is taken"]],
  run: async (ctx) => {
    const size = optString(ctx, "size");
    const cwd = optString(ctx, "cwd");
    const project = optString(ctx, "project");
    const params: Record<string, unknown> = {
      project,
      name: optString(ctx, "name"),
      session: optString(ctx, "session"),
      env: parseEnvPairs(optList(ctx, "env")),
      command: ctx.rest,
      ...(size ? parseSize(size) : {}),
    };
    // Without a project, a pane starts where the command was run, as in tmux.
    if (cwd !== undefined) params.cwd = resolve(cwd);
    else if (project === undefined) params.cwd = Deno.cwd();
    const pane = await withDaemon((client) => client.call<PaneInfo>("pane.new", params));
    ctx.out.result({ pane }, () => ctx.out.line(pane.id));
  },
};
