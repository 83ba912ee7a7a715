/**
 * `skiff new`: start a pane.
 *
 * @module
 */

import { resolve } from "../lib/platform/path.ts";
import {
  defineCommand,
  fitPaneSize,
  parseEnvPairs,
  parseSize,
  secondsToMs,
  SkiffError,
} from "../lib/cli/mod.ts";
import { clientEnv } from "../lib/client/env.ts";
import { withSkiffd } from "../lib/hosts/resolve.ts";
import type { NewPaneParams, PaneInfo } from "../lib/protocol/panes.ts";
import { agentLaunchFor } from "../lib/agents/launch.ts";

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
    const { cwd, project, agent, host } = ctx.opts;
    const size = ctx.opts.size === undefined ? undefined : fitPaneSize(parseSize(ctx.opts.size));
    let env = parseEnvPairs(ctx.opts.env);
    let command = ctx.rest;
    let launched: NewPaneParams["launched"];
    let unwired: string | undefined;
    // On another host, skiffd there wires the agent's hooks to its own skiff.
    if (agent !== undefined && host === undefined) {
      const launch = agentLaunchFor(agent, {
        continue: ctx.opts.continue,
        chooseId: true,
        extra: ctx.rest,
        env: { ...Deno.env.toObject(), ...env },
      });
      command = launch.command;
      // The user's --env wins over Skiff's hook wiring.
      env = { ...launch.env, ...env };
      launched = { agent, args: ctx.rest, conversation: launch.conversation };
      unwired = launch.unwired;
    }
    const worktree = ctx.opts.worktree;
    // Run in a project's folder (its root or below), a pane is that project's, as with --project
    // (and a worktree is of that project's repository): skiffd finds it with the config it runs on.
    // A folder here means nothing on another host.
    const fromFolder = host === undefined && cwd === undefined && project === undefined &&
      ctx.opts.session === undefined;
    const params: NewPaneParams = {
      project,
      ...(fromFolder ? { project_at: Deno.cwd() } : {}),
      // A pane in a worktree is named after it unless named.
      name: ctx.opts.name ?? (worktree === undefined ? agent : undefined),
      session: ctx.opts.session,
      env,
      command,
      // This terminal's PATH and display mean nothing on another host.
      ...(host === undefined ? { client_env: clientEnv() } : {}),
      ...(host !== undefined && agent !== undefined
        ? { agent: { id: agent, continue: ctx.opts.continue } }
        : {}),
      ...(launched ? { launched } : {}),
      ...(ctx.opts["no-resume"] ? { resume: false } : {}),
      ...(size ? { cols: size.cols, rows: size.rows } : {}),
      ...(worktree === undefined
        ? {}
        : { worktree: { name: worktree, branch: ctx.opts.branch, base: ctx.opts.base } }),
    };
    // Without a project, a pane starts where the command was run, as in tmux; on another
    // host, in the project's root or the home folder there.
    if (cwd !== undefined) params.cwd = host === undefined ? resolve(cwd) : folderOnHost(cwd, host);
    else if (host === undefined && project === undefined && worktree === undefined) {
      params.cwd = Deno.cwd();
    }
    const readyMs = secondsToMs(ctx.opts.timeout ?? DEFAULT_READY_SECONDS, "timeout");
    let reopened = false;
    const pane = await withSkiffd(host, async (client) => {
      const { worktree_reopened, ...made } = await client.call("pane.new", params);
      reopened = worktree_reopened ?? false;
      if (!ctx.opts["wait-ready"]) return made;
      return await client.call("pane.ready", { pane: made.id, timeout_ms: readyMs });
    });
    if (fromFolder && pane.project !== null) {
      ctx.out.notice(`In project ${pane.project}: this folder is in its root`);
    }
    if (unwired) {
      ctx.out.notice(
        `Skiff's hooks for ${agent} are not wired (${unwired}): its state is read from its screen`,
      );
    }
    const raised = size?.raisedFrom ?? null;
    if (raised) {
      ctx.out.notice(
        `skiff: size ${raised.cols}x${raised.rows} was raised to ${size!.cols}x${
          size!.rows
        }, the smallest a pane takes`,
      );
    }
    const json = { ...newPaneJson(pane, reopened), host: host ?? null, size_raised_from: raised };
    ctx.out.result({ ...json, hooks_unwired: unwired ?? null }, () => {
      ctx.out.line(host === undefined ? pane.id : `${host}:${pane.id}`);
      if (pane.worktree) {
        const again = reopened ? "Opened again in worktree" : "Worktree";
        ctx.out.notice(
          `${again} ${pane.worktree.name} on branch ${pane.worktree.branch}: ${pane.worktree.path}`,
        );
      }
    });
  },
});

/** `--cwd` for a pane on `host`: a path there, so it must be absolute (nothing here resolves it). */
function folderOnHost(cwd: string, host: string): string {
  if (cwd.startsWith("/")) return cwd;
  throw new SkiffError(`--cwd with --host needs an absolute path on ${host}: '${cwd}' is not`, {
    exit: "USAGE",
  });
}

/**
 * What `new --json` prints: the pane's id, name, worktree and branch first,
 * whether the worktree existed already (`worktree_reopened`), then the whole pane.
 */
function newPaneJson(pane: PaneInfo, reopened: boolean) {
  return {
    id: pane.id,
    name: pane.name,
    worktree: pane.worktree,
    branch: pane.worktree?.branch ?? null,
    worktree_reopened: reopened,
    pane,
  };
}
