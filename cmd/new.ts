/**
 * `skiff new`: start a pane.
 *
 * @module
 */

import {
  defineCommand,
  fitPaneSize,
  parseEnvPairs,
  parseSize,
  secondsToMs,
} from "../lib/cli/mod.ts";
import { newPane, type NewPaneOptions, startsFromFolder } from "../lib/ops/new_pane.ts";

/** How long `--wait-ready` waits by default, in seconds. */
export const DEFAULT_READY_SECONDS = 120;

/** The `new` command. */
export const command = defineCommand({
  name: "new",
  summary: "Start a pane running a shell or a command",
  description:
    "Start a pane and print its id. Without a command it runs your login shell. In a project, it starts in the project's root and runs the project's command, if one is set. Run in a project's folder (its root or below) with no --project, --cwd or --session, the pane is that project's and starts in the current folder; a line on stderr says so. With --worktree NAME (in a project, or in a project's folder) it starts in a new git worktree of the project's repository instead, on a branch of its own (skiff/NAME), so agents side by side never edit the same checkout; see 'skiff worktree'. A worktree NAME that Skiff made already and no running pane holds (its pane was killed) is opened again, and the output says so. --wait-ready returns once the agent in the pane is ready for a task.",
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
    {
      name: "no-resume",
      type: "boolean",
      help: "After a restart or a crash, do not resume the pane's agent's conversation",
    },
    {
      name: "worktree",
      short: "w",
      type: "string",
      value: "NAME",
      help:
        "Make a git worktree NAME of the project's repository and start in it (or open it again)",
      conflicts: ["cwd"],
    },
    {
      name: "branch",
      short: "b",
      type: "string",
      value: "B",
      help: "With --worktree: its branch (default skiff/NAME); an existing one is checked out",
      requires: ["worktree"],
    },
    {
      name: "base",
      type: "string",
      value: "REF",
      help: "With --worktree: where a new branch starts (default the project's HEAD)",
      requires: ["worktree"],
    },
    {
      name: "host",
      type: "string",
      value: "HOST",
      help: "Start the pane on HOST (see 'skiff host'); it prints HOST:ID",
    },
    {
      name: "wait-ready",
      type: "boolean",
      help: "Return once the agent in the pane is idle at its input box",
    },
    {
      name: "timeout",
      short: "t",
      type: "number",
      value: "S",
      help: `With --wait-ready: give up after S seconds (default ${DEFAULT_READY_SECONDS})`,
      requires: ["wait-ready"],
    },
  ],
  passthrough: "COMMAND ARGS…",
  examples: [
    "skiff new --name web -- npm run dev",
    "skiff new --project api --name reviewer --agent claude",
    "skiff new --project api --worktree login --agent claude --wait-ready --json",
    "skiff new --host gpu1 --project api --name reviewer --agent claude",
  ],
  exits: [
    [
      "USAGE",
      "Bad usage or input, a bad worktree or branch name, or a project not in a Git repository",
    ],
    ["NOT_FOUND", "No such project or agent, a command that cannot start, no such base, or no git"],
    "DAEMON",
    [
      "CONFLICT",
      "The pane's name, the worktree's branch or its folder is taken, or a running pane holds the worktree",
    ],
    ["TIMEOUT", "--wait-ready: the agent was not ready in time (the pane stays)"],
    ["NOT_RUNNING", "--wait-ready: the pane's process exited first"],
    ["NO_AGENT", "--wait-ready: no agent runs in the pane, so it never gets ready"],
    ["UNREACHABLE", "--host: the host cannot be reached over SSH"],
    ["PROTOCOL", "--host: the host's Skiff cannot be used from this one"],
  ],
  run: async (ctx) => {
    const size = ctx.opts.size === undefined ? undefined : fitPaneSize(parseSize(ctx.opts.size));
    const options: NewPaneOptions = {
      command: ctx.rest,
      project: ctx.opts.project,
      name: ctx.opts.name,
      session: ctx.opts.session,
      cwd: ctx.opts.cwd,
      size,
      env: parseEnvPairs(ctx.opts.env),
      agent: ctx.opts.agent,
      continue: ctx.opts.continue,
      noResume: ctx.opts["no-resume"],
      worktree: ctx.opts.worktree,
      branch: ctx.opts.branch,
      base: ctx.opts.base,
      host: ctx.opts.host,
      waitReady: ctx.opts["wait-ready"],
      readyMs: secondsToMs(ctx.opts.timeout ?? DEFAULT_READY_SECONDS, "timeout"),
    };
    const made = await newPane(options);
    const { pane, host } = made;
    if (startsFromFolder(options) && pane.project !== null) {
      ctx.out.notice(`In project ${pane.project}: this folder is in its root`);
    }
    if (made.hooks_unwired) {
      ctx.out.notice(
        `Skiff's hooks for ${options.agent} are not wired (${made.hooks_unwired}): its state is read from its screen`,
      );
    }
    const raised = made.size_raised_from;
    if (raised) {
      ctx.out.notice(
        `skiff: size ${raised.cols}x${raised.rows} was raised to ${size!.cols}x${
          size!.rows
        }, the smallest a pane takes`,
      );
    }
    ctx.out.result(made, () => {
      ctx.out.line(host === null ? pane.id : `${host}:${pane.id}`);
      if (pane.worktree) {
        const again = made.worktree_reopened ? "Opened again in worktree" : "Worktree";
        ctx.out.notice(
          `${again} ${pane.worktree.name} on branch ${pane.worktree.branch}: ${pane.worktree.path}`,
        );
      }
    });
  },
});
