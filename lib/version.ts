/** The version of this Skiff build. Kept in step with `deno.json`. */
export const VERSION = "0.1.0";

/** The version of the JSON-lines protocol between the CLI and skiffd. */
export const PROTOCOL_VERSION = 1;

/** The version of every `--json` output shape. Bumped only on a breaking change. */
export const SCHEMA_VERSION = 1;
