/**
 * Checks the params of a request. Every method reads its params only through
 * these, so a bad value gets a clear `usage` error instead of a crash.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";

/** The params of one request. */
export type Params = Record<string, unknown>;

function bad(key: string, expected: string): SkiffError {
  return new SkiffError(`Bad request: '${key}' must be ${expected}`, { exit: "USAGE" });
}

/** Reads a required non-empty string. */
export function needString(params: Params, key: string): string {
  const value = params[key];
  if (typeof value !== "string" || value === "") throw bad(key, "a non-empty string");
  return value;
}

/** Reads an optional string. */
export function maybeString(params: Params, key: string): string | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw bad(key, "a string");
  return value;
}

/** Reads an optional boolean (absent is false). */
export function flag(params: Params, key: string): boolean {
  const value = params[key];
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw bad(key, "true or false");
  return value;
}

/** Reads an optional whole number within `[min, max]`. */
export function maybeInt(
  params: Params,
  key: string,
  min: number,
  max: number,
): number | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw bad(key, `a whole number from ${min} to ${max}`);
  }
  return value;
}

/** Reads a required whole number within `[min, max]`. */
export function needInt(params: Params, key: string, min: number, max: number): number {
  const value = maybeInt(params, key, min, max);
  if (value === undefined) throw bad(key, `a whole number from ${min} to ${max}`);
  return value;
}

/** Reads an optional list of strings. */
export function maybeStrings(params: Params, key: string): string[] | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw bad(key, "a list of strings");
  }
  return value;
}

/** Reads an optional string → string record. */
export function maybeStringRecord(params: Params, key: string): Record<string, string> | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  if (
    typeof value !== "object" || Array.isArray(value) ||
    !Object.values(value as Record<string, unknown>).every((v) => typeof v === "string")
  ) {
    throw bad(key, "an object of strings");
  }
  return value as Record<string, string>;
}

/** Reads a required mark key: up to 64 letters, digits, `_`, `.`, `:` and `-`. */
export function needMarkKey(params: Params, key: string): string {
  const value = needString(params, key);
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(value)) {
    throw new SkiffError(
      `Bad mark key '${value}': use up to 64 letters, digits, '_', '.', ':' and '-'`,
      { exit: "USAGE" },
    );
  }
  return value;
}

/** Reads an optional place in the event stream: `{run, seq}`. */
export function maybeCursor(params: Params, key: string): { run: string; seq: number } | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (
    typeof value !== "object" || Array.isArray(value) || typeof record.run !== "string" ||
    typeof record.seq !== "number" || !Number.isInteger(record.seq) || record.seq < 0
  ) {
    throw bad(key, "an object {run, seq} with a run id and a whole number");
  }
  return { run: record.run, seq: record.seq };
}

/** Reads an optional mark filter: `{key, value?}`. */
export function maybeMark(
  params: Params,
  key: string,
): { key: string; value?: string } | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (
    typeof value !== "object" || Array.isArray(value) || typeof record.key !== "string" ||
    record.key === "" || (record.value !== undefined && typeof record.value !== "string")
  ) {
    throw bad(key, "an object {key, value?} of strings");
  }
  return { key: record.key, value: record.value as string | undefined };
}
