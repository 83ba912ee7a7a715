/**
 * The ledger's tools: `ledger_list` and `ledger_show` (always offered),
 * `ledger_add` and `ledger_update` (the ledger gate; `ledger_add` with
 * send also needs the send gate).
 *
 * @module
 */

import { z } from "zod";
import { SkiffError } from "../../errors.ts";
import { SHOWN_STATES, STORED_STATES } from "../../ledger/mod.ts";
import { ledgerAdd, ledgerAddInput, ledgerList, ledgerShow, ledgerUpdate } from "../../ops/mod.ts";
import { defineTool, ms, paneRef } from "./tool.ts";
import { LEDGER_ROW, PANE, SECONDS } from "./schemas.ts";

const ID = z.string().min(1).describe("Row ID, uid, or the first 4 or more characters of a uid");

/** `ledger_list`: as `skiff ledger ls --json`. */
export const LEDGER_LIST = defineTool({
  name: "ledger_list",
  gate: null,
  title: "List the ledger",
  description:
    "List the Skiff agent's ledger, as 'skiff ledger ls --json' does: the open plans and tasks (not done), each plan with its tasks. A task shows interrupted when its pane restarted after the send, gone when its pane no longer exists, unreachable when its host cannot be reached now.",
  input: z.object({
    state: z.array(z.enum(SHOWN_STATES)).optional().describe("Only rows that show these states"),
    pane: z.string().min(1).optional().describe("Only tasks on this pane (id or stored name)"),
    plan: z.string().min(1).optional().describe("Only this plan and its tasks"),
    all: z.boolean().optional().describe("Include done rows"),
  }),
  output: z.object({
    liveness: z.enum(["known", "unknown"]),
    unreachable: z.array(z.object({ host: z.string(), why: z.string() })),
    rows: z.array(LEDGER_ROW),
  }),
  readOnly: true,
  run: async (input, context) => {
    using ledger = context.ledger();
    return await ledgerList(ledger, {
      state: input.state && input.state.length > 0 ? input.state : undefined,
      pane: input.pane,
      plan: input.plan,
      all: input.all,
    }, { project: context.project, access: context.access });
  },
});

/** `ledger_show`: as `skiff ledger show --json`. */
export const LEDGER_SHOW = defineTool({
  name: "ledger_show",
  gate: null,
  title: "Show a ledger row",
  description:
    "Show every field of one ledger row, a plan with all of its tasks, as 'skiff ledger show --json' does.",
  input: z.object({ id: ID }),
  output: z.object({ liveness: z.enum(["known", "unknown"]), row: LEDGER_ROW }),
  readOnly: true,
  run: async (input, context) => {
    using ledger = context.ledger();
    return await ledgerShow(ledger, input.id, {
      project: context.project,
      access: context.access,
    });
  },
});

/** `ledger_add`: as `skiff ledger add --json` (and with send, `--send`). */
export const LEDGER_ADD = defineTool({
  name: "ledger_add",
  gate: "ledger",
  title: "Add a ledger task or plan",
  description:
    "Add a row to the ledger, as 'skiff ledger add --json' does: a task for a pane (stored with the pane's host, id, name and generation), or a plan when no pane is given (put tasks under it with parent). The result path is computed unless given. send (which needs the send gate too) sends it to the pane at once with every check of send_to_pane, as 'skiff ledger add --send' does: a refusal leaves the task pending, no turn leaves it blocked.",
  input: z.object({
    pane: PANE.optional(),
    task: z.string().min(1).describe("The task text"),
    result: z.string().min(1).optional().describe("The result file (default: computed)"),
    ref: z.string().optional().describe("Free text, such as a URL or ticket key"),
    parent: z.string().min(1).optional().describe("The plan this task belongs to"),
    send: z.boolean().optional().describe("Send it to the pane now"),
    enter: z.boolean().optional().describe("With send: press Enter and wait for a turn"),
    timeout_seconds: SECONDS.optional().describe("With send: how long to wait for the turn"),
  }),
  output: z.looseObject({
    row: LEDGER_ROW,
    send: z.looseObject({ pane: z.string(), entered: z.boolean() }).nullable().optional(),
    exit: z.number().optional(),
  }),
  readOnly: false,
  alsoNeeds: { gate: "send", when: "with send", needed: (input) => input.send === true },
  run: async (input, context) => {
    if (input.send && input.pane === undefined) {
      // Refused before the ledger is opened: a refused add makes no ledger.
      throw new SkiffError("Only a task with a pane can be sent: give pane with send", {
        exit: "USAGE",
      });
    }
    const options = { project: context.project, access: context.access };
    const add = await ledgerAddInput({
      pane: input.pane === undefined ? undefined : paneRef(input.pane, context),
      task: input.task,
      result: input.result,
      ref: input.ref,
      parent: input.parent,
    }, options);
    // The first add makes the ledger; an add that would fail makes nothing.
    using ledger = context.ledger({ create: true, rehearse: (empty) => empty.add(add) });
    return await ledgerAdd(ledger, add, {
      ...options,
      send: input.send,
      enter: input.enter,
      timeoutMs: ms(input.timeout_seconds),
    });
  },
});

/** `ledger_update`: as `skiff ledger update --json`. */
export const LEDGER_UPDATE = defineTool({
  name: "ledger_update",
  gate: "ledger",
  title: "Change a ledger row",
  description:
    "Change a ledger row's state (sent, pending, blocked, done), pane, task text, ref or result path, as 'skiff ledger update --json' does. A new pane stores that pane's id, name and current generation. A plan with open tasks cannot be done.",
  input: z.object({
    id: ID,
    state: z.enum(STORED_STATES).optional().describe("The new state"),
    pane: PANE.optional().describe("Move the task to this pane"),
    task: z.string().min(1).optional().describe("New task text"),
    ref: z.string().nullable().optional().describe("New free text; null or '' clears it"),
    result: z.string().min(1).optional().describe("New result path"),
  }),
  output: z.object({ row: LEDGER_ROW }),
  readOnly: false,
  run: async (input, context) => {
    using ledger = context.ledger();
    return await ledgerUpdate(ledger, input.id, {
      changes: {
        state: input.state,
        pane: input.pane === undefined ? undefined : paneRef(input.pane, context),
        task: input.task,
        ref: input.ref === "" ? null : input.ref,
        result: input.result,
      },
      project: context.project,
      access: context.access,
    });
  },
});
