/**
 * What `daemon.upgrade` asks (`skiff daemon upgrade`): the request, its
 * check, and the steps a test may make fail on purpose.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";

/**
 * The fault switch of upgrades, for tests: `SKIFF_FAULT_UPGRADE=STEP` in the
 * environment of `skiff daemon upgrade` makes that step fail on purpose.
 * The steps, in order: `check` (the new program's check), `quiesce`
 * (waiting for requests under way), `freeze` (panes stopped), `save` (the
 * handoff file written), `exec` (the exec itself), `adopt` (the new program
 * taking the panes) and `listen` (the new program taking the socket). A
 * failure at any step leaves the old skiffd serving every pane as it was.
 */
export const UPGRADE_FAULT_ENV = "SKIFF_FAULT_UPGRADE";

/** The steps of {@linkcode UPGRADE_FAULT_ENV}. */
export const UPGRADE_STEPS = [
  "check",
  "quiesce",
  "freeze",
  "save",
  "exec",
  "adopt",
  "listen",
] as const;

/** One step of an upgrade. */
export type UpgradeStep = typeof UPGRADE_STEPS[number];

/** What `daemon.upgrade` asks. */
export interface UpgradeRequest {
  /** The upgrade's id, chosen by the client. */
  id: string;
  /** The new program's command line (default: this skiffd's own). */
  program?: string[];
  /** The new program's version, for the log. */
  version?: string;
  /** A step to fail on purpose ({@linkcode UPGRADE_STEPS}). */
  fault?: UpgradeStep;
}

/** Checks the params of `daemon.upgrade`. */
export function upgradeRequest(params: Record<string, unknown>): UpgradeRequest {
  const id = params.id;
  if (typeof id !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
    throw new SkiffError("Bad request: 'id' must be 1-64 letters, digits, '-' or '_'", {
      exit: "USAGE",
    });
  }
  const program = params.program;
  if (
    program !== undefined &&
    (!Array.isArray(program) || program.length === 0 ||
      !program.every((w) => typeof w === "string") || !program[0].startsWith("/"))
  ) {
    throw new SkiffError("Bad request: 'program' must be a command line with an absolute path", {
      exit: "USAGE",
    });
  }
  const fault = params.fault;
  if (fault !== undefined && !UPGRADE_STEPS.includes(fault as UpgradeStep)) {
    throw new SkiffError(
      `Bad request: 'fault' must be one of ${UPGRADE_STEPS.join(", ")}`,
      { exit: "USAGE" },
    );
  }
  return {
    id,
    ...(program ? { program: program as string[] } : {}),
    ...(typeof params.version === "string" ? { version: params.version } : {}),
    ...(fault ? { fault: fault as UpgradeStep } : {}),
  };
}
