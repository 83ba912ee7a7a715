/**
 * Custom agents: an `[agents.NAME]` table of `projects.toml` read into the
 * same {@linkcode AgentProfile} shape as the built-ins, with every field the
 * built-ins have. Each error names the key it is about.
 *
 * @module
 */

import { basename } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";
import { splitCommand } from "../config/config.ts";
import type { HookState } from "../protocol/agents.ts";
import type { AgentProfile, HookCases, HookKind, HookMeaning, Rule } from "./profile.ts";
import { COMMON_HOOK_EVENTS } from "./profiles/hook_events.ts";

/** Agent ids name panes (`skiff new --agent ID`) and hook commands. */
const AGENT_ID = /^[A-Za-z0-9_.-]+$/;
const HOOK_KINDS: HookKind[] = ["claude-settings", "codex-notify", "opencode-plugin", "none"];
const HOOK_STATES: HookState[] = ["working", "waiting", "idle", "info"];

/** Every key an `[agents.NAME]` table may hold. */
export const AGENT_KEYS = [
  "label",
  "command",
  "continue_args",
  "match",
  "enter_delay_ms",
  "settle_ms",
  "busy",
  "not_busy",
  "approval",
  "prompt",
  "continuation",
  "placeholders",
  "frame",
  "prompt_status",
  "title_busy",
  "title_approval",
  "title_idle",
  "progress",
  "status_app",
  "hooks",
] as const;

/** Reads one `[agents.NAME]` table; every error names `agents.NAME.<key>` in `file`. */
class TableReader {
  readonly #file: string;
  readonly #prefix: string;
  readonly #table: Record<string, unknown>;

  constructor(file: string, prefix: string, table: Record<string, unknown>) {
    this.#file = file;
    this.#prefix = prefix;
    this.#table = table;
  }

  key(name: string): string {
    return `${this.#prefix}.${name}`;
  }

  fail(name: string, what: string): never {
    throw new SkiffError(`${this.#file}: '${this.key(name)}' ${what}`, { exit: "USAGE" });
  }

  onlyKeys(known: readonly string[]): void {
    for (const name of Object.keys(this.#table)) {
      if (!known.includes(name)) {
        this.fail(name, `is not a known key; known keys: ${known.join(", ")}`);
      }
    }
  }

  string(name: string): string | undefined {
    const value = this.#table[name];
    if (value === undefined) return undefined;
    if (typeof value !== "string" || value === "") this.fail(name, "must be a non-empty string");
    return value;
  }

  /** A command line: a string split into words as a shell would, or a list of words. */
  commandWords(name: string): string[] | undefined {
    const value = this.#table[name];
    if (value === undefined) return undefined;
    const words = typeof value === "string"
      ? splitCommand(value)
      : Array.isArray(value) && value.every((w) => typeof w === "string")
      ? value as string[]
      : undefined;
    if (words === undefined || words.some((w) => w === "")) {
      this.fail(name, "must be a command line (a string) or a list of words");
    }
    return words;
  }

  /** A string or a list of strings, as a list. */
  words(name: string): string[] | undefined {
    const value = this.#table[name];
    if (value === undefined) return undefined;
    const list = typeof value === "string" ? [value] : value;
    if (
      !Array.isArray(list) || list.length === 0 ||
      !list.every((w) => typeof w === "string" && w !== "")
    ) {
      this.fail(name, "must be a string or a list of non-empty strings");
    }
    return list as string[];
  }

  integer(name: string, min: number, max: number): number | undefined {
    const value = this.#table[name];
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      this.fail(name, `must be a whole number from ${min} to ${max}`);
    }
    return value;
  }

  boolean(name: string): boolean | undefined {
    const value = this.#table[name];
    if (value === undefined) return undefined;
    if (typeof value !== "boolean") this.fail(name, "must be true or false");
    return value;
  }

  pattern(name: string, source: unknown = this.#table[name]): RegExp | undefined {
    if (source === undefined) return undefined;
    if (typeof source !== "string" || source === "") {
      this.fail(name, "must be a pattern (a string)");
    }
    try {
      return new RegExp(source);
    } catch (error) {
      this.fail(name, `has a bad pattern: ${(error as Error).message}`);
    }
  }

  /**
   * Named rules: a pattern, or a list of patterns and `{ name, pattern }`
   * tables. Unnamed rules are called `<key> 1`, `<key> 2`, …
   */
  rules(name: string): Rule[] | undefined {
    const value = this.#table[name];
    if (value === undefined) return undefined;
    const list = Array.isArray(value) ? value : [value];
    return list.map((item, i) => {
      if (typeof item === "string") {
        return {
          name: `${name.replaceAll("_", " ")} ${i + 1}`,
          pattern: this.pattern(name, item)!,
        };
      }
      if (
        typeof item === "object" && item !== null && !Array.isArray(item) &&
        typeof item.name === "string" && item.name !== "" && typeof item.pattern === "string" &&
        Object.keys(item).every((k) => k === "name" || k === "pattern")
      ) {
        return { name: item.name, pattern: this.pattern(name, item.pattern)! };
      }
      this.fail(name, "must be a pattern, or a list of patterns and { name, pattern } tables");
    });
  }

  table(name: string): Record<string, unknown> | undefined {
    const value = this.#table[name];
    if (value === undefined) return undefined;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.fail(name, "must be a table");
    }
    return value as Record<string, unknown>;
  }
}

function hookState(reader: TableReader, name: string, value: unknown): HookState {
  if (typeof value !== "string" || !HOOK_STATES.includes(value as HookState)) {
    reader.fail(name, `must be one of ${HOOK_STATES.join(", ")}`);
  }
  return value as HookState;
}

/** One entry of `hooks.events`: a state, or `{ field, cases, otherwise }`. */
function hookMeaning(reader: TableReader, name: string, value: unknown): HookMeaning {
  if (typeof value === "string") return hookState(reader, name, value);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    reader.fail(name, `must be a state (${HOOK_STATES.join(", ")}) or a { field, cases } table`);
  }
  const table = value as Record<string, unknown>;
  for (const key of Object.keys(table)) {
    if (!["field", "cases", "otherwise"].includes(key)) {
      reader.fail(`${name}.${key}`, "is not a known key; known keys: field, cases, otherwise");
    }
  }
  const field = table.field;
  if (typeof field !== "string" || field === "") {
    reader.fail(`${name}.field`, "must be the payload field to read, such as 'status.type'");
  }
  const cases = table.cases;
  if (typeof cases !== "object" || cases === null || Array.isArray(cases)) {
    reader.fail(`${name}.cases`, "must be a table of pattern = state");
  }
  const meaning: HookCases = {
    field,
    cases: Object.entries(cases).map(([source, state]) => ({
      pattern: reader.pattern(`${name}.cases`, source)!,
      state: hookState(reader, `${name}.cases`, state),
    })),
  };
  const otherwise = table.otherwise;
  if (otherwise !== undefined) {
    meaning.otherwise = hookState(reader, `${name}.otherwise`, otherwise);
  }
  return meaning;
}

function hookRules(reader: TableReader): AgentProfile["hooks"] {
  const table = reader.table("hooks");
  if (!table) return { kind: "none", events: COMMON_HOOK_EVENTS };
  for (const key of Object.keys(table)) {
    if (key !== "kind" && key !== "events") {
      reader.fail(`hooks.${key}`, "is not a known key; known keys: kind, events");
    }
  }
  const kind = table.kind ?? "none";
  if (typeof kind !== "string" || !HOOK_KINDS.includes(kind as HookKind)) {
    reader.fail("hooks.kind", `must be one of ${HOOK_KINDS.join(", ")}`);
  }
  const events = table.events;
  if (events === undefined) return { kind: kind as HookKind, events: COMMON_HOOK_EVENTS };
  if (typeof events !== "object" || events === null || Array.isArray(events)) {
    reader.fail("hooks.events", "must be a table of event = state");
  }
  const meanings: Record<string, HookMeaning> = {};
  for (const [event, value] of Object.entries(events)) {
    meanings[event] = hookMeaning(reader, `hooks.events.${event}`, value);
  }
  return { kind: kind as HookKind, events: meanings };
}

/**
 * Builds the profile of custom agent `id` from its `[agents.ID]` table in
 * `file`. Throws a USAGE {@linkcode SkiffError} that names the key at fault.
 */
export function parseAgentProfile(
  id: string,
  table: Record<string, unknown>,
  options: { file: string },
): AgentProfile {
  if (!AGENT_ID.test(id)) {
    throw new SkiffError(
      `${options.file}: agent name '${id}' may hold only letters, digits, '.', '_' and '-'`,
      { exit: "USAGE" },
    );
  }
  const reader = new TableReader(options.file, `agents.${id}`, table);
  reader.onlyKeys(AGENT_KEYS);
  const words = reader.commandWords("command") ?? [];
  if (words.length === 0) {
    reader.fail("command", "must be the command that starts the agent (a string or a list)");
  }
  const match = reader.words("match") ?? [basename(words[0])];
  const prompt = reader.pattern("prompt") ??
    reader.fail("prompt", "must be a pattern for the input box row, with the text as group 1");
  const frame = reader.pattern("frame");
  const continuation = reader.pattern("continuation");
  const status = reader.pattern("prompt_status");
  const placeholders = reader.rules("placeholders")?.map((r) => r.pattern);
  const title = {
    busy: reader.rules("title_busy"),
    approval: reader.rules("title_approval"),
    idle: reader.rules("title_idle"),
  };
  const settleMs = reader.integer("settle_ms", 50, 10_000);
  const progress = reader.boolean("progress");
  const statusApp = reader.string("status_app");
  const notBusy = reader.rules("not_busy")?.map((r) => r.pattern);
  return {
    id,
    label: reader.string("label") ?? id,
    command: words[0],
    startArgs: words.slice(1),
    continueArgs: reader.commandWords("continue_args") ?? null,
    match: { comm: match, argv: match },
    enterDelayMs: reader.integer("enter_delay_ms", 150, 10_000) ?? 200,
    ...(settleMs === undefined ? {} : { settleMs }),
    screen: {
      busy: reader.rules("busy") ?? [],
      ...(notBusy ? { notBusy } : {}),
      approval: reader.rules("approval") ?? [],
      composer: {
        line: prompt,
        ...(placeholders ? { placeholders } : {}),
        ...(frame ? { frame } : {}),
        ...(continuation ? { continuation } : {}),
        ...(status ? { status } : {}),
      },
    },
    title: {
      ...(title.busy ? { busy: title.busy } : {}),
      ...(title.approval ? { approval: title.approval } : {}),
      ...(title.idle ? { idle: title.idle } : {}),
    },
    ...(progress === undefined ? {} : { progress }),
    ...(statusApp ? { statusApp } : {}),
    hooks: hookRules(reader),
    custom: true,
  };
}
