/**
 * Custom agents: an `[agents.NAME]` table of `projects.toml` read into the
 * same {@linkcode AgentProfile} shape as the built-ins, with every field the
 * built-ins have. Each error names the key it is about.
 *
 * @module
 */

import { basename } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";
import { splitCommand } from "../config/tables.ts";
import { ConfigPlaces } from "../config/keys.ts";
import type { HookState } from "../protocol/agents.ts";
import {
  type AgentProfile,
  COMMON_HOOK_EVENTS,
  type HookCases,
  type HookKind,
  type HookMeaning,
  type Rule,
} from "./profiles/mod.ts";

/** Agent ids name panes (`skiff new --agent ID`) and hook commands. */
const AGENT_ID = /^[A-Za-z0-9_.-]+$/;
const HOOK_KINDS: HookKind[] = ["claude-settings", "codex-notify", "opencode-plugin", "none"];
const HOOK_STATES: HookState[] = ["working", "waiting", "idle", "info"];

/**
 * Every key an `[agents.NAME]` table may hold; any other is refused with the
 * nearest of these. A new key is one line here plus its reading below.
 */
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
  "start_settle_ms",
  "hooks",
  "resume_args",
  "resume_new_args",
  "resume_id",
  "resume_events",
  "resume_record",
] as const;

/** A key of the table: one name, or a path below it (such as `["hooks", "kind"]`). */
type Key = string | readonly string[];

/** Reads one `[agents.NAME]` table; every error names `agents.NAME.<key>` and its place. */
class TableReader {
  readonly #places: ConfigPlaces;
  readonly #prefix: readonly string[];
  readonly #table: Record<string, unknown>;

  constructor(places: ConfigPlaces, prefix: readonly string[], table: Record<string, unknown>) {
    this.#places = places;
    this.#prefix = prefix;
    this.#table = table;
  }

  path(name: Key): string[] {
    return [...this.#prefix, ...(typeof name === "string" ? [name] : name)];
  }

  fail(name: Key, what: string): never {
    throw this.#places.keyError(this.path(name), what);
  }

  /** Refuses a key of `table` (at `under`, the table itself by default) not in `known`. */
  onlyKeys(known: readonly string[], table = this.#table, under: readonly string[] = []): void {
    this.#places.onlyKnown(table, this.path(under), known);
  }

  /** Whether the table has key `name`. */
  has(name: string): boolean {
    return this.#table[name] !== undefined;
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

  pattern(name: Key, source: unknown = this.#table[name as string]): RegExp | undefined {
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

function hookState(reader: TableReader, name: readonly string[], value: unknown): HookState {
  if (typeof value !== "string" || !HOOK_STATES.includes(value as HookState)) {
    reader.fail(name, `must be one of ${HOOK_STATES.join(", ")}`);
  }
  return value as HookState;
}

/** One entry of `hooks.events`: a state, or `{ field, cases, otherwise }`. */
function hookMeaning(reader: TableReader, name: readonly string[], value: unknown): HookMeaning {
  if (typeof value === "string") return hookState(reader, name, value);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    reader.fail(name, `must be a state (${HOOK_STATES.join(", ")}) or a { field, cases } table`);
  }
  const table = value as Record<string, unknown>;
  reader.onlyKeys(["field", "cases", "otherwise"], table, name);
  const field = table.field;
  if (typeof field !== "string" || field === "") {
    reader.fail([...name, "field"], "must be the payload field to read, such as 'status.type'");
  }
  const cases = table.cases;
  if (typeof cases !== "object" || cases === null || Array.isArray(cases)) {
    reader.fail([...name, "cases"], "must be a table of pattern = state");
  }
  const meaning: HookCases = {
    field,
    cases: Object.entries(cases).map(([source, state]) => ({
      pattern: reader.pattern([...name, "cases"], source)!,
      state: hookState(reader, [...name, "cases"], state),
    })),
  };
  const otherwise = table.otherwise;
  if (otherwise !== undefined) {
    meaning.otherwise = hookState(reader, [...name, "otherwise"], otherwise);
  }
  return meaning;
}

function hookRules(reader: TableReader): AgentProfile["hooks"] {
  const table = reader.table("hooks");
  if (!table) return { kind: "none", events: COMMON_HOOK_EVENTS };
  reader.onlyKeys(["kind", "events"], table, ["hooks"]);
  const kind = table.kind ?? "none";
  if (typeof kind !== "string" || !HOOK_KINDS.includes(kind as HookKind)) {
    reader.fail(["hooks", "kind"], `must be one of ${HOOK_KINDS.join(", ")}`);
  }
  const events = table.events;
  if (events === undefined) return { kind: kind as HookKind, events: COMMON_HOOK_EVENTS };
  if (typeof events !== "object" || events === null || Array.isArray(events)) {
    reader.fail(["hooks", "events"], "must be a table of event = state");
  }
  const meanings: Record<string, HookMeaning> = {};
  for (const [event, value] of Object.entries(events)) {
    meanings[event] = hookMeaning(reader, ["hooks", "events", event], value);
  }
  return { kind: kind as HookKind, events: meanings };
}

/**
 * Builds the profile of custom agent `id` from its `[agents.ID]` table in
 * `file` (whose `places` give each error its line and column). Throws a
 * USAGE {@linkcode SkiffError} that names the key at fault.
 */
export function parseAgentProfile(
  id: string,
  table: Record<string, unknown>,
  options: { file: string; places?: ConfigPlaces },
): AgentProfile {
  const places = options.places ?? new ConfigPlaces(options.file, "");
  if (!AGENT_ID.test(id)) {
    throw new SkiffError(
      `${
        places.at(["agents", id])
      }: agent name '${id}' may hold only letters, digits, '.', '_' and '-'`,
      { exit: "USAGE" },
    );
  }
  const reader = new TableReader(places, ["agents", id], table);
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
  const startSettleMs = reader.integer("start_settle_ms", 0, 10_000);
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
    ...(startSettleMs === undefined ? {} : { startSettleMs }),
    hooks: hookRules(reader),
    ...resumeRule(reader),
    custom: true,
  };
}

/**
 * The resume rule of a custom agent: `resume_args` (with `{id}`), and
 * optionally `resume_new_args`, `resume_id` (the payload field, default
 * `session_id`), `resume_events` and `resume_record` (paths; by default the
 * payload's `transcript_path` names the record).
 */
function resumeRule(reader: TableReader): Pick<AgentProfile, "resume"> {
  const args = reader.commandWords("resume_args");
  const others = ["resume_new_args", "resume_id", "resume_events", "resume_record"];
  if (!args) {
    const stray = others.find((key) => reader.has(key));
    if (stray) reader.fail(stray, "needs resume_args, the arguments that resume a conversation");
    return {};
  }
  const holdsId = (words: string[]) => words.some((word) => word.includes("{id}"));
  if (!holdsId(args)) {
    reader.fail("resume_args", "must hold {id}, where the conversation's id goes");
  }
  const newArgs = reader.commandWords("resume_new_args");
  if (newArgs && !holdsId(newArgs)) {
    reader.fail("resume_new_args", "must hold {id}, where the new conversation's id goes");
  }
  const events = reader.words("resume_events");
  const paths = reader.words("resume_record");
  return {
    resume: {
      args,
      ...(newArgs ? { newArgs } : {}),
      id: { field: reader.string("resume_id") ?? "session_id", ...(events ? { events } : {}) },
      record: { field: "transcript_path", ...(paths ? { paths } : {}) },
    },
  };
}
