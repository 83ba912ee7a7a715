/**
 * The app: a local web page that skiffd serves on 127.0.0.1 with a token.
 * It shows the Skiff agent's row above the projects, the panes as live
 * terminals, the ledger, and Settings › Skiff agent. The page's own sources
 * are in `app/`, built into `lib/assets` by `deno task embed`.
 *
 * @module
 */

export { APP_HOST, appService } from "./service.ts";
export { type AppAddress, appFile, readAppAddress } from "./app_file.ts";
export { agentIconState, iconMeaning, type IconState } from "../overview/watcher.ts";
export { openInBrowser, type OpenOutcome } from "./browser.ts";
export type * from "./api.ts";
