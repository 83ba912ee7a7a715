/**
 * Landing a worktree's work on its base (`skiff land`), all or nothing.
 *
 * {@linkcode landWorktree} is the whole landing, for the CLI, the MCP
 * server and the app: it returns exactly the object `skiff land --json`
 * prints ({@linkcode LandResult}), and every refusal is a `SkiffError`
 * whose details are a `LandRefusalDetails` (see `lib/protocol/land.ts`).
 *
 * How it is made, module by module:
 *
 * - `plan.ts` works out what lands with plumbing only (`merge-tree`,
 *   commit objects written in one run): a conflict is found there and
 *   leaves no `rebase-merge` folder, no index and no file changed.
 * - `apply.ts` carries the plan out as journaled steps (`steps.ts`), each a
 *   compare-and-swap of a ref or a `read-tree` of a checkout, undone the last
 *   first when anything fails; `check.ts` runs the project's check between.
 * - `lock.ts` lets one landing at a time into a repository; a landing whose
 *   process died is finished from its journal by the next.
 * - `publish.ts` is `--push` and `--pr`; `ledger_tasks.ts` the ledger's
 *   tasks; `words.ts` the messages.
 *
 * @module
 */

export { landedLine, landWorktree } from "./land.ts";
export { DEFAULT_CHECK_TIMEOUT_MS, DEFAULT_REMOTE, type LandOptions } from "./options.ts";
export type { LandResult } from "../protocol/land.ts";
