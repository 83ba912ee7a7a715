/**
 * What a command tells skiffd about its own environment when it starts a
 * pane: the variables that follow a person from terminal to terminal.
 *
 * @module
 */

import { CLIENT_ENV } from "../protocol/panes.ts";

/** The {@linkcode CLIENT_ENV} variables of this process, for `pane.new`'s `client_env`. */
export function clientEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of CLIENT_ENV) {
    const value = Deno.env.get(key);
    if (value !== undefined) env[key] = value;
  }
  return env;
}
