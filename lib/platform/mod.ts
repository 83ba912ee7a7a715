/**
 * The operating system seam: PTYs, process facts, and starting copies of
 * this program.
 *
 * @module
 */

export * from "./pty.ts";
export * from "./proc.ts";
export * from "./spawn_self.ts";
export * from "./peercred.ts";
export * from "./files.ts";
export * from "./shell.ts";
export * from "./bytes.ts";
