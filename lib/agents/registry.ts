/**
 * The known agents: the built-in profiles plus custom agents declared in
 * `projects.toml` as `[agents.NAME]`. A custom agent with a built-in's name
 * replaces it, so rules can be fixed without waiting for a release.
 *
 * @module
 */

import { basename } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";
import type { ConfigPlaces } from "../config/keys.ts";
import type { ForegroundProcess } from "../platform/proc.ts";
import { type AgentProfile, BUILT_IN } from "./profiles/mod.ts";
import { parseAgentProfile } from "./profile_toml.ts";

/** Interpreters whose script, not themselves, names the program. */
const INTERPRETERS = new Set([
  "node",
  "nodejs",
  "bun",
  "deno",
  "python",
  "python3",
  "ruby",
  "perl",
  "sh",
  "bash",
  "npx",
  "tsx",
]);

function stripExtension(name: string): string {
  return name.replace(/\.(js|mjs|cjs|ts|py)$/, "");
}

/** The set of known agents. */
export class AgentRegistry {
  /** Every profile, custom ones first. */
  readonly profiles: readonly AgentProfile[];

  /**
   * Builds the registry from the built-ins and a config document's `[agents]`
   * (a {@linkcode Config} will do: its `places` give errors their line and column).
   */
  constructor(
    options: { document?: Record<string, unknown>; file?: string; places?: ConfigPlaces } = {},
  ) {
    const custom: AgentProfile[] = [];
    const agents = options.document?.agents;
    const file = options.file ?? "projects.toml";
    const at = (path: string[]) => options.places?.at(path) ?? file;
    if (agents !== undefined) {
      if (typeof agents !== "object" || agents === null || Array.isArray(agents)) {
        throw new SkiffError(`${at(["agents"])}: 'agents' must be a table`, { exit: "USAGE" });
      }
      for (const [id, table] of Object.entries(agents)) {
        if (typeof table !== "object" || table === null || Array.isArray(table)) {
          throw new SkiffError(`${at(["agents", id])}: 'agents.${id}' must be a table`, {
            exit: "USAGE",
          });
        }
        custom.push(
          parseAgentProfile(id, table as Record<string, unknown>, {
            file,
            places: options.places,
          }),
        );
      }
    }
    const ids = new Set(custom.map((p) => p.id));
    this.profiles = [...custom, ...BUILT_IN.filter((p) => !ids.has(p.id))];
  }

  /** Finds a profile by id. */
  get(id: string): AgentProfile | undefined {
    return this.profiles.find((p) => p.id === id);
  }

  /**
   * Recognises the agent of a foreground process: by its command name, by
   * argv[0], or, for an interpreter such as `node`, by its script.
   */
  identify(process: ForegroundProcess | undefined): AgentProfile | undefined {
    if (!process) return undefined;
    const first = process.argv[0] ? basename(process.argv[0]) : process.comm;
    const names = [process.comm, first];
    if (INTERPRETERS.has(stripExtension(first)) || INTERPRETERS.has(process.comm)) {
      for (const word of process.argv.slice(1, 6)) {
        if (!word.startsWith("-")) names.push(basename(word));
      }
    }
    for (const profile of this.profiles) {
      const wanted = new Set([...(profile.match.comm ?? []), ...(profile.match.argv ?? [])]);
      if (names.some((n) => wanted.has(n) || wanted.has(stripExtension(n)))) return profile;
    }
    return undefined;
  }
}
