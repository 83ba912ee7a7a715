/**
 * The command-line framework: specs, parsing, help, output and exit codes.
 *
 * @module
 */

export * from "../errors.ts";
export * from "./output.ts";
export * from "./spec.ts";
export { findCommand, GLOBAL_OPTIONS, parse, type Parsed, usageError } from "./parse.ts";
export { renderHelp, renderRootHelp } from "./help.ts";
export { type ReferenceOptions, renderReference } from "./reference.ts";
export { runCli, type RunCliOptions } from "./run.ts";
export * from "./values.ts";
export * from "./stdin.ts";
export * from "./exits.ts";
export {
  complete,
  type Completion,
  completionScript,
  completionText,
  type Shell,
  SHELLS,
  type ValueSource,
} from "./complete.ts";
