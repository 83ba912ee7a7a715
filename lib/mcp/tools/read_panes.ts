/**
 * The tools that read panes, always offered: `list_panes`, `capture_pane`,
 * `wait_for_pane` and `pane_diff`.
 *
 * @module
 */

import { z } from "zod";
import { capturePane, listPanes, paneDiff, WAIT_STATES, waitForPane } from "../../ops/mod.ts";
import { defineTool, ms, paneRef } from "./tool.ts";
import { LISTED_PANE, PANE, SECONDS } from "./schemas.ts";

/** `list_panes`: as `skiff ls --json`. */
export const LIST_PANES = defineTool({
  name: "list_panes",
  gate: null,
  title: "List panes",
  description:
    "List the panes: id, name, project, session, the agent in front, its state (starting, working, idle, waiting, exited, or shell), whether it is unread, folder, title, worktree and more, as 'skiff ls --json' does. all_hosts adds every host's panes (each with its host), each host answering within 0.8 s.",
  input: z.object({
    mark: z.string().min(1).optional().describe(
      "Only panes whose session has mark KEY, or KEY=VALUE",
    ),
    all_hosts: z.boolean().optional().describe("Also list the panes of every host"),
  }),
  output: z.object({
    panes: z.array(LISTED_PANE),
    hosts: z.array(z.looseObject({
      host: z.string(),
      state: z.string(),
      why: z.string().nullable(),
      panes: z.number().nullable(),
    })).optional(),
  }),
  readOnly: true,
  run: async (input, context) => {
    const hostOnly = context.host;
    const listed = await listPanes({
      mark: input.mark,
      allHosts: input.all_hosts || hostOnly !== undefined,
      project: context.project,
      access: context.access,
    });
    if (hostOnly === undefined) return listed;
    // On --host, this machine's panes are not the ones the tools name.
    return { ...listed, panes: listed.panes.filter((p) => p.host === hostOnly) };
  },
});

/** `capture_pane`: as `skiff capture --json`. */
export const CAPTURE_PANE = defineTool({
  name: "capture_pane",
  gate: null,
  title: "Read a pane's screen",
  description:
    "Read what a pane shows, as text (trailing blank lines dropped), with its cursor, size, title and every row, as 'skiff capture --json' does. scrollback adds that many lines of history before the screen.",
  input: z.object({
    pane: PANE,
    scrollback: z.number().int().min(0).optional().describe("Include N lines of history"),
    ansi: z.boolean().optional().describe("Keep colours and styles as escape codes"),
  }),
  output: z.looseObject({
    pane: z.string(),
    name: z.string(),
    text: z.string(),
    lines: z.array(z.string()),
    cols: z.number(),
    rows: z.number(),
  }),
  readOnly: true,
  run: (input, context) =>
    capturePane(paneRef(input.pane, context), {
      ansi: input.ansi,
      scrollback: input.scrollback,
      project: context.project,
      access: context.access,
    }),
});

/** `wait_for_pane`: as `skiff wait --json`. */
export const WAIT_FOR_PANE = defineTool({
  name: "wait_for_pane",
  gate: null,
  title: "Wait for a pane's state",
  description:
    "Wait until the pane shows a state: idle, working or waiting (an agent's), exited, or shell (no known agent in front), as 'skiff wait --json' does. Fails with timeout when the time passes first, not_running when the process exited first, and no_agent when no agent is in front (only an agent gets to idle, working or waiting).",
  input: z.object({
    pane: PANE,
    until: z.enum(WAIT_STATES).optional().describe("The state to wait for (default idle)"),
    timeout_seconds: SECONDS.optional().describe("Give up after this many seconds"),
  }),
  output: z.looseObject({ pane: z.string(), name: z.string(), state: z.string() }),
  readOnly: true,
  run: (input, context) =>
    waitForPane(paneRef(input.pane, context), {
      until: input.until,
      timeoutMs: ms(input.timeout_seconds),
      project: context.project,
      access: context.access,
    }),
});

/** `pane_diff`: as `skiff diff --json`. */
export const PANE_DIFF = defineTool({
  name: "pane_diff",
  gate: null,
  title: "A pane's worktree against its base",
  description:
    "What the pane's git worktree (made by new_pane with worktree) holds against its base: commits since the base, uncommitted changes and untracked files, as one patch with each file's counts and the totals, as 'skiff diff --json' does. stat leaves the patch out.",
  input: z.object({
    pane: PANE,
    stat: z.boolean().optional().describe("Only each file's counts and the totals, no patch"),
  }),
  output: z.looseObject({
    host: z.string().nullable(),
    pane: z.string().nullable(),
    name: z.string().nullable(),
    worktree: z.looseObject({
      name: z.string(),
      branch: z.string(),
      path: z.string(),
      base: z.string(),
    }),
    from: z.string(),
    files: z.number(),
    added: z.number(),
    removed: z.number(),
    changes: z.array(z.looseObject({ path: z.string() })),
    patch: z.string().optional(),
  }),
  readOnly: true,
  run: (input, context) =>
    paneDiff(paneRef(input.pane, context), {
      stat: input.stat,
      project: context.project,
      access: context.access,
    }),
});
