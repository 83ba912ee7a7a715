/**
 * The Skiff agent: its settings (`[skiff_agent]`), its folder (rules, setup,
 * `--move-to`), the skill it reads, its ledger, and opening its marked
 * session in skiffd. `skiff skipper`, `skiff settings`, the ledger commands
 * and the app call this.
 *
 * @module
 */

export * from "./marks.ts";
export * from "./folder.ts";
export * from "./setup.ts";
export * from "./skill.ts";
export * from "./settings.ts";
export * from "./ledger.ts";
export * from "./start_line.ts";
export * from "./session.ts";
export * from "./open.ts";
export * from "./status.ts";
export * from "./move.ts";
export { moveLines } from "./move_lines.ts";
export { agentInstructions } from "./instructions.ts";
export { checkCopy, copyFolder, type CopyReport } from "./copy.ts";
