/**
 * The command-line kit a command is written with: specs, parsing, values,
 * output and exit codes.
 *
 * The dispatcher (`run.ts`), help (`help.ts`), completion (`complete.ts`)
 * and the reference page (`reference.ts`) are not here: every command
 * imports this module, and a start should load only what its command uses.
 * Their few users import them by file.
 *
 * @module
 */

export * from "../errors.ts";
export * from "./output.ts";
export * from "./spec.ts";
export { findCommand, GLOBAL_OPTIONS, parse, type Parsed, usageError } from "./parse.ts";
export * from "./values.ts";
export * from "./stdin.ts";
export * from "./exits.ts";
