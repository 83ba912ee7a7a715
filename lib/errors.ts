/**
 * Exit codes and the one error type every command throws.
 *
 * The table is the contract with scripts: docs/exit-codes.md lists it, and a code
 * never changes meaning once released.
 *
 * @module
 */

import { SCHEMA_VERSION } from "./version.ts";

/** Every exit code `skiff` uses, by name. */
export const Exit = {
  /** Success. */
  OK: 0,
  /** An unexpected internal error. */
  ERROR: 1,
  /** Bad usage or bad input: an unknown option, a malformed value, a TOML error. */
  USAGE: 2,
  /** The named pane, session, project or task does not exist. */
  NOT_FOUND: 3,
  /** skiffd could not be reached or started. */
  DAEMON: 4,
  /** The thing exists already, or the request conflicts with the current state. */
  CONFLICT: 5,
  /** A file is corrupt, foreign, locked or read-only; it was left untouched. */
  DATA: 6,
  /** A wait ran out of time. */
  TIMEOUT: 7,
  /** The text went in, but no turn started: the pane needs the person. */
  NO_TURN: 8,
  /** The pane's process has exited. */
  NOT_RUNNING: 10,
  /** No known agent is in front of the pane. */
  NO_AGENT: 11,
  /** The agent is working. */
  WORKING: 12,
  /** An approval dialog or question shows. */
  APPROVAL: 13,
  /** The input box holds a draft, or does not show. */
  DRAFT: 14,
  /** A person typed into the pane after the check. */
  TYPING: 15,
  /** The typed text did not show up in the input box. */
  NOT_DELIVERED: 16,
  /** Another host (`HOST:PANE`) cannot be reached over SSH, or its link was lost. */
  UNREACHABLE: 17,
  /** This `skiff` and skiffd speak different protocol versions. */
  PROTOCOL: 18,
  /** `skiff land`: the branch does not apply on its base (the files conflict); nothing was changed. */
  MERGE_CONFLICT: 19,
  /** `skiff land`: the project's check failed or ran too long; nothing was changed. */
  CHECK_FAILED: 20,
  /** `skiff land --push`: git could not push the branch; nothing was changed. */
  PUSH_FAILED: 21,
  /** `skiff land --pr`: the branch was pushed, but no pull request was opened. */
  PR_FAILED: 22,
} as const;

/** A name from {@linkcode Exit}. */
export type ExitName = keyof typeof Exit;

/** The stable, lower-case code string used in JSON errors for each exit name. */
export function codeOf(name: ExitName): string {
  return name.toLowerCase();
}

/** Options for {@linkcode SkiffError}. */
export interface SkiffErrorOptions {
  /** The exit code's name. Defaults to `ERROR`. */
  exit?: ExitName;
  /** Extra fields for the JSON form of the error. */
  details?: Record<string, unknown>;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * An error meant for the user: one clear line, and a documented exit code.
 *
 * @example Usage
 * ```ts
 * throw new SkiffError("No pane named 'web'", { exit: "NOT_FOUND" });
 * ```
 */
export class SkiffError extends Error {
  /** The exit code's name. */
  readonly exit: ExitName;
  /** Extra fields for the JSON form. */
  readonly details: Record<string, unknown>;

  /** Makes an error with a one-line message. */
  constructor(message: string, options: SkiffErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "SkiffError";
    this.exit = options.exit ?? "ERROR";
    this.details = options.details ?? {};
  }

  /** The numeric exit code. */
  get code(): number {
    return Exit[this.exit];
  }
}

/** Returns the exit name for a numeric code, or `ERROR` when it is unknown. */
export function exitNameOf(code: number): ExitName {
  for (const [name, value] of Object.entries(Exit)) {
    if (value === code) return name as ExitName;
  }
  return "ERROR";
}

/** An error as `skiff … --json` prints it on stderr (and an MCP tool error carries it). */
export interface ErrorJson {
  /** The JSON schema's version. */
  schema_version: number;
  /** The error: its code's name, the exit code, the one line, and its own fields. */
  error: { code: string; exit: number; message: string; [field: string]: unknown };
}

/**
 * The JSON of `error`: a {@linkcode SkiffError} with its exit and details,
 * anything else as an internal error (exit 1).
 */
export function errorJson(error: unknown): ErrorJson {
  let exit: ExitName = "ERROR";
  let message: string;
  let details: Record<string, unknown> = {};
  if (error instanceof SkiffError) {
    exit = error.exit;
    message = error.message;
    details = error.details;
  } else {
    message = `Internal error: ${error instanceof Error ? error.message : String(error)}`;
  }
  return {
    schema_version: SCHEMA_VERSION,
    error: { code: codeOf(exit), exit: Exit[exit], message, ...details },
  };
}
