/**
 * The shapes the tools share: a pane as `skiff ls --json` lists it, a
 * ledger row, and the common inputs. Outputs are loose objects: they name
 * the keys a client can count on, and let the rest of the command's JSON
 * through unchanged.
 *
 * @module
 */

import { z } from "zod";
import { SHOWN_STATES, STORED_STATES } from "../../ledger/mod.ts";

/** A pane ref. */
export const PANE = z.string().min(1).describe(
  "The pane: its id (p3), name, project/name, or HOST:PANE for a pane on another host",
);

/** Seconds to wait, 0 to 86400. */
export const SECONDS = z.number().min(0).max(86_400);

/** A pane, as `skiff ls --json` and `skiff new --json` give it. */
export const PANE_INFO = z.looseObject({
  id: z.string(),
  name: z.string(),
  project: z.string().nullable(),
  session_name: z.string(),
  agent: z.string().nullable(),
  state: z.string(),
  status: z.string(),
  unread: z.boolean(),
  cwd: z.string(),
  title: z.string(),
  generation: z.number(),
});

/** A pane in a listing: with its host (null for this machine's). */
export const LISTED_PANE = PANE_INFO.extend({ host: z.string().nullable() });

/** A ledger row, as `skiff ledger … --json` gives it. */
export const LEDGER_ROW: z.ZodObject = z.looseObject({
  id: z.number(),
  uid: z.string(),
  kind: z.enum(["task", "plan"]),
  state: z.enum(SHOWN_STATES),
  stored_state: z.enum(STORED_STATES),
  host: z.string().nullable(),
  pane: z.string().nullable(),
  pane_name: z.string().nullable(),
  task: z.string(),
  result: z.string(),
  get tasks() {
    return z.array(LEDGER_ROW).optional();
  },
});

/** Every output holds the JSON schema's version first, as the commands' JSON does. */
export const SCHEMA_VERSION = z.number().describe("The version of the JSON's shape");
