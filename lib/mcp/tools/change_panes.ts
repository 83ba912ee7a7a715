/**
 * The tools that change panes, each offered only when its gate is open:
 * `send_to_pane` (send), `new_pane` (new), `mark_seen` (seen) and
 * `kill_pane` (kill).
 *
 * @module
 */

import { z } from "zod";
import { SkiffError } from "../../errors.ts";
import { killPane, markSeen, newPane, sendToPane } from "../../ops/mod.ts";
import { defineTool, ms, paneRef } from "./tool.ts";
import { PANE, PANE_INFO, SECONDS } from "./schemas.ts";

/** `send_to_pane`: as `skiff send --json`, with the same guard and refusals. */
export const SEND_TO_PANE = defineTool({
  name: "send_to_pane",
  gate: "send",
  title: "Type a task into an agent",
  description:
    "Type text into the agent in a pane, only when it is safe, as 'skiff send --json' does: at the moment of typing Skiff checks that the pane runs, a known agent is in front, it is not working, no approval shows, and its input box shows and is empty; a refusal types nothing and names why (working, approval, draft, typing, no_agent, not_running). The text goes in as one bracketed paste; with enter, Enter is pressed and the call waits for a turn to start (no_turn if none did). any allows a program that is not a known agent (no screen checks).",
  input: z.object({
    pane: PANE,
    text: z.string().min(1).describe("The text to type (at most 256 KB)"),
    enter: z.boolean().optional().describe("Press Enter and wait for a turn to start"),
    timeout_seconds: SECONDS.optional().describe(
      "With enter: how long to wait for the turn (default: skiffd's, 10 s)",
    ),
    any: z.boolean().optional().describe("Allow a program that is not a known agent"),
  }),
  output: z.looseObject({
    pane: z.string(),
    name: z.string(),
    generation: z.number(),
    agent: z.string().nullable(),
    entered: z.boolean(),
    turn_started: z.boolean(),
  }),
  readOnly: false,
  run: (input, context) =>
    sendToPane(paneRef(input.pane, context), input.text, {
      enter: input.enter,
      any: input.any,
      timeoutMs: ms(input.timeout_seconds),
      project: context.project,
      access: context.access,
    }),
});

/** `new_pane`: as `skiff new --json`. */
export const NEW_PANE = defineTool({
  name: "new_pane",
  gate: "new",
  title: "Start a pane",
  description:
    "Start a pane running a shell, a command or an agent (with Skiff's hooks), as 'skiff new --json' does, and return its id. In a project it starts in the project's root; with worktree it starts in a new git worktree of the project's repository, on a branch of its own (skiff/NAME), so agents side by side never edit the same checkout. wait_ready returns once the agent is idle at its input box, ready for a task.",
  input: z.object({
    agent: z.string().min(1).optional().describe("The agent to start (see 'skiff agents')"),
    project: z.string().min(1).optional().describe("The project to start it in"),
    name: z.string().min(1).optional().describe("The pane's name (unique)"),
    session: z.string().min(1).optional().describe("The session to join, or make"),
    cwd: z.string().min(1).optional().describe("The folder to start in"),
    command: z.array(z.string()).optional().describe(
      "The command and its arguments; with agent, extra arguments for the agent",
    ),
    env: z.record(z.string(), z.string()).optional().describe("Environment variables"),
    worktree: z.string().min(1).optional().describe("Make a git worktree NAME and start in it"),
    branch: z.string().min(1).optional().describe("With worktree: its branch"),
    base: z.string().min(1).optional().describe("With worktree: where a new branch starts"),
    host: z.string().min(1).optional().describe("Start it on this host (see 'skiff host')"),
    continue: z.boolean().optional().describe("With agent: continue its last conversation"),
    wait_ready: z.boolean().optional().describe("Return once the agent is ready for a task"),
    timeout_seconds: SECONDS.optional().describe("With wait_ready: give up after this long"),
  }),
  output: z.object({
    id: z.string(),
    name: z.string(),
    worktree: z.looseObject({ name: z.string(), branch: z.string(), path: z.string() })
      .nullable(),
    branch: z.string().nullable(),
    worktree_reopened: z.boolean(),
    pane: PANE_INFO,
    host: z.string().nullable(),
    size_raised_from: z.looseObject({ cols: z.number(), rows: z.number() }).nullable(),
    hooks_unwired: z.string().nullable(),
  }),
  readOnly: false,
  run: (input, context) => {
    const scope = context.project;
    if (scope !== undefined && input.project !== undefined && input.project !== scope) {
      throw new SkiffError(`This server starts panes only in project ${scope}`, {
        exit: "USAGE",
        details: { project: input.project, scope },
      });
    }
    if (input.worktree === undefined && (input.branch ?? input.base) !== undefined) {
      throw new SkiffError("branch and base go with worktree", { exit: "USAGE" });
    }
    if (input.cwd !== undefined && input.worktree !== undefined) {
      throw new SkiffError("cwd and worktree cannot go together", { exit: "USAGE" });
    }
    return newPane({
      command: input.command,
      project: input.project ?? scope,
      name: input.name,
      session: input.session,
      cwd: input.cwd,
      env: input.env,
      agent: input.agent,
      continue: input.continue,
      worktree: input.worktree,
      branch: input.branch,
      base: input.base,
      host: input.host ?? context.host,
      waitReady: input.wait_ready,
      readyMs: ms(input.timeout_seconds),
      access: context.access,
      scope,
    });
  },
});

/** `mark_seen`: as `skiff seen --json`. */
export const MARK_SEEN = defineTool({
  name: "mark_seen",
  gate: "seen",
  title: "Mark a pane seen",
  description:
    "Clear a pane's unread flag (set by a turn end, an idle after a prompt, a wait, a bell or an exit), as 'skiff seen --json' does, and say what was cleared.",
  input: z.object({ pane: PANE }),
  output: z.looseObject({
    pane: z.string(),
    name: z.string(),
    was_unread: z.boolean(),
    reasons: z.array(z.string()),
  }),
  readOnly: false,
  run: (input, context) =>
    markSeen(paneRef(input.pane, context), { project: context.project, access: context.access }),
});

/** `kill_pane`: as `skiff kill --json`. */
export const KILL_PANE = defineTool({
  name: "kill_pane",
  gate: "kill",
  title: "End a pane",
  description:
    "End a pane's process (SIGHUP, then SIGKILL after 2 s) and remove the pane, as 'skiff kill --json' does. Its id is never used again.",
  input: z.object({ pane: PANE }),
  output: z.object({ killed: PANE_INFO }),
  readOnly: false,
  run: (input, context) =>
    killPane(paneRef(input.pane, context), { project: context.project, access: context.access }),
});
