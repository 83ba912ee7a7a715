/**
 * The known agents: the built-in profiles plus custom agents declared in
 * `projects.toml` as `[agents.NAME]`. A custom agent with a built-in's name
 * replaces it, so rules can be fixed without waiting for a release.
 *
 * @module
 */

import { basename } from "node:path";
import { SkiffError } from "../errors.ts";
import { splitCommand } from "../config/config.ts";
import type { ForegroundProcess } from "../platform/proc.ts";
import type { AgentProfile, Rule } from "./profile.ts";
import { BUILT_IN } from "./profiles/mod.ts";

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

function regexList(file: string, key: string, value: unknown): Rule[] {
  if (value === undefined) return [];
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || !list.every((v) => typeof v === "string")) {
    throw new SkiffError(`${file}: '${key}' must be a string or a list of strings`, {
      exit: "USAGE",
    });
  }
  return list.map((source, i) => ({
    name: `${key.split(".").pop()} ${i + 1}`,
    pattern: compile(file, key, source),
  }));
}

function compile(file: string, key: string, source: string): RegExp {
  try {
    return new RegExp(source);
  } catch (error) {
    throw new SkiffError(`${file}: '${key}' has a bad pattern: ${(error as Error).message}`, {
      exit: "USAGE",
    });
  }
}

/** Builds the profile of a custom agent from its `[agents.NAME]` table. */
export function customProfile(
  file: string,
  id: string,
  table: Record<string, unknown>,
): AgentProfile {
  const key = (k: string) => `agents.${id}.${k}`;
  if (typeof table.command !== "string" || splitCommand(table.command).length === 0) {
    throw new SkiffError(`${file}: '${key("command")}' must be the command that starts the agent`, {
      exit: "USAGE",
    });
  }
  const words = splitCommand(table.command);
  const match = table.match === undefined ? [basename(words[0])] : table.match;
  const matchWords = typeof match === "string" ? [match] : match;
  if (!Array.isArray(matchWords) || !matchWords.every((w) => typeof w === "string" && w !== "")) {
    throw new SkiffError(
      `${file}: '${key("match")}' must be a program name or a list of them`,
      { exit: "USAGE" },
    );
  }
  if (typeof table.prompt !== "string") {
    throw new SkiffError(
      `${file}: '${
        key("prompt")
      }' must be a pattern for the input box row, with the text as group 1`,
      {
        exit: "USAGE",
      },
    );
  }
  const delay = table.enter_delay_ms ?? 200;
  if (typeof delay !== "number" || delay < 150 || delay > 10_000) {
    throw new SkiffError(`${file}: '${key("enter_delay_ms")}' must be from 150 to 10000`, {
      exit: "USAGE",
    });
  }
  return {
    id,
    label: typeof table.label === "string" ? table.label : id,
    command: words[0],
    startArgs: words.slice(1),
    continueArgs: null,
    match: { comm: matchWords, argv: matchWords },
    enterDelayMs: delay,
    screen: {
      busy: regexList(file, key("busy"), table.busy),
      approval: regexList(file, key("approval"), table.approval),
      composer: {
        line: compile(file, key("prompt"), table.prompt),
        placeholders: regexList(file, key("placeholders"), table.placeholders).map((r) =>
          r.pattern
        ),
        frame: typeof table.frame === "string"
          ? compile(file, key("frame"), table.frame)
          : undefined,
        continuation: typeof table.continuation === "string"
          ? compile(file, key("continuation"), table.continuation)
          : undefined,
      },
    },
    title: {
      busy: regexList(file, key("title_busy"), table.title_busy),
      approval: regexList(file, key("title_approval"), table.title_approval),
      idle: regexList(file, key("title_idle"), table.title_idle),
    },
    progress: table.progress === true,
    hooks: "none",
    custom: true,
  };
}

/** The set of known agents. */
export class AgentRegistry {
  /** Every profile, custom ones first. */
  readonly profiles: readonly AgentProfile[];

  /** Builds the registry from the built-ins and a config document's `[agents]`. */
  constructor(options: { document?: Record<string, unknown>; file?: string } = {}) {
    const custom: AgentProfile[] = [];
    const agents = options.document?.agents;
    if (agents !== undefined) {
      if (typeof agents !== "object" || agents === null || Array.isArray(agents)) {
        throw new SkiffError(`${options.file}: 'agents' must be a table`, { exit: "USAGE" });
      }
      for (const [id, table] of Object.entries(agents)) {
        if (typeof table !== "object" || table === null || Array.isArray(table)) {
          throw new SkiffError(`${options.file}: 'agents.${id}' must be a table`, {
            exit: "USAGE",
          });
        }
        custom.push(
          customProfile(options.file ?? "projects.toml", id, table as Record<string, unknown>),
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
