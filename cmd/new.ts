/**
 * `skiff new`: start a pane.
 *
 * @module
 */

import { resolve } from "../lib/platform/path.ts";
import { defineCommand, fitPaneSize, parseEnvPairs, parseSize } from "../lib/cli/mod.ts";
import { clientEnv, withDaemon } from "../lib/client/mod.ts";
import type { NewPaneParams } from "../lib/protocol/panes.ts";
import { agentLaunchFor } from "../lib/agents/launch.ts";

/** The `new` command. */
export const command = defineCommand({
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
      complete: "project",
    },
    { name: "name", short: "n", type: "string", value: "N", help: "Name the pane N (unique)" },
    {
      name: "session",
      short: "s",
      type: "string",
      value: "S",
      help: "Join session S, or make it",
      complete: "session",
    },
    {
      name: "cwd",
      short: "c",
      type: "string",
      value: "DIR",
      help: "Start in folder DIR",
      complete: "dir",
    },
    {
      name: "size",
      type: "string",
      value: "COLSxROWS",
      help: "Terminal size, 20x5 to 1000x1000 (default 120x40; a smaller one is raised)",
    },
    { name: "env", short: "e", type: "list", value: "K=V", help: "Set an environment variable" },
    {
      name: "agent",
      short: "a",
      type: "string",
      value: "ID",
      help: "Start agent ID (see 'skiff agents') with Skiff's hooks",
      complete: "agent",
    },
    {
      name: "continue",
      type: "boolean",
      help: "With --agent: continue its last conversation in the folder",
      requires: ["agent"],
    },
  ],
  passthrough: "COMMAND ARGS…",
  examples: [
    "skiff new --name web -- npm run dev",
    "skiff new --project api --name reviewer --agent claude",
  ],
  exits: [["NOT_FOUND", "No such project or agent"], "DAEMON", ["CONFLICT", "The name is taken"]],
  run: async (ctx) => {
    const { cwd, project, agent } = ctx.opts;
    const size = ctx.opts.size === undefined ? undefined : fitPaneSize(parseSize(ctx.opts.size));
    let env = parseEnvPairs(ctx.opts.env);
    let command = ctx.rest;
    if (agent !== undefined) {
      const launch = agentLaunchFor(agent, { continue: ctx.opts.continue, extra: ctx.rest });
      command = launch.command;
      // The user's --env wins over Skiff's hook wiring.
      env = { ...launch.env, ...env };
    }
    const params: NewPaneParams = {
      project,
      name: ctx.opts.name ?? agent,
      session: ctx.opts.session,
      env,
      command,
      client_env: clientEnv(),
      ...(size ? { cols: size.cols, rows: size.rows } : {}),
    };
    // Without a project, a pane starts where the command was run, as in tmux.
    if (cwd !== undefined) params.cwd = resolve(cwd);
    else if (project === undefined) params.cwd = Deno.cwd();
    const pane = await withDaemon((client) => client.call("pane.new", params));
    const raised = size?.raisedFrom ?? null;
    if (raised) {
      ctx.out.notice(
        `skiff: size ${raised.cols}x${raised.rows} was raised to ${size!.cols}x${
          size!.rows
        }, the smallest a pane takes`,
      );
    }
    ctx.out.result({ pane, size_raised_from: raised }, () => ctx.out.line(pane.id));
  },
});
