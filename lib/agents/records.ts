/**
 * Finding where an agent keeps a conversation's record (its transcript,
 * rollout or database row), from the profile's `RecordRule`: a resume is
 * typed only when the record is there, because an agent asked for a
 * conversation it does not have starts an empty one, or stops.
 *
 * Only ids the agent's own hooks named are looked for; nothing here scans for
 * ids to adopt.
 *
 * @module
 */

import type { RecordRule } from "./profiles/mod.ts";

/** What a conversation id may hold: it names files and goes on a command line. */
export const CONVERSATION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

/** The most folder entries one path pattern may walk through. */
const MAX_ENTRIES = 20_000;

/**
 * Expands `~`, `${VAR}` and `${VAR:-default}` (defaults may nest) from `env`,
 * and `{id}` and `{id8}` (its first 8 characters). An unset `${VAR}` is
 * empty; `~` with no `HOME` stays `~`.
 */
export function expandPattern(
  pattern: string,
  env: Record<string, string | undefined>,
  id: string,
): string {
  let i = 0;
  const parse = (stop: string | undefined): string => {
    let out = "";
    while (i < pattern.length) {
      if (stop !== undefined && pattern[i] === stop) return out;
      if (pattern.startsWith("${", i)) {
        i += 2;
        const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(pattern.slice(i))?.[0] ?? "";
        i += name.length;
        let fallback = "";
        if (pattern.startsWith(":-", i)) {
          i += 2;
          fallback = parse("}");
        }
        i++; // The closing brace.
        const value = env[name];
        out += value ? value : fallback;
      } else {
        out += pattern[i++];
      }
    }
    return out;
  };
  let text = parse(undefined);
  const home = env.HOME;
  if (home && (text === "~" || text.startsWith("~/"))) text = home + text.slice(1);
  return text.replaceAll("{id8}", id.slice(0, 8)).replaceAll("{id}", id);
}

function globToRegExp(part: string): RegExp {
  const escaped = part.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*");
  return new RegExp(`^${escaped}$`);
}

/** The files that `path` names, where a part with `*` matches any one name. */
function matching(path: string): string[] {
  if (!path.includes("*")) {
    try {
      return Deno.statSync(path).isFile ? [path] : [];
    } catch {
      return [];
    }
  }
  const parts = path.split("/");
  let found = [parts[0] === "" ? "/" : parts[0]];
  let walked = 0;
  for (const part of parts.slice(1)) {
    if (part === "") continue;
    const next: string[] = [];
    for (const dir of found) {
      const join = (name: string) => dir === "/" ? `/${name}` : `${dir}/${name}`;
      if (!part.includes("*")) {
        next.push(join(part));
        continue;
      }
      const re = globToRegExp(part);
      try {
        for (const entry of Deno.readDirSync(dir)) {
          if (++walked > MAX_ENTRIES) return [];
          if (re.test(entry.name)) next.push(join(entry.name));
        }
      } catch {
        // Not a folder, or not readable: nothing there.
      }
    }
    found = next;
  }
  return found.filter((file) => {
    try {
      return Deno.statSync(file).isFile;
    } catch {
      return false;
    }
  });
}

/** The most of a record's start read for its first line. */
const HEADER_BYTES = 64 * 1024;

/** Whether the first line of `file` is JSON whose `field` is `id`. */
function headerNames(file: string, field: string, id: string): boolean {
  let start: Uint8Array;
  try {
    using handle = Deno.openSync(file);
    const buffer = new Uint8Array(HEADER_BYTES);
    start = buffer.subarray(0, handle.readSync(buffer) ?? 0);
  } catch {
    return false;
  }
  const end = start.indexOf(0x0a);
  try {
    const line = JSON.parse(new TextDecoder().decode(end < 0 ? start : start.subarray(0, end)));
    return typeof line === "object" && line !== null && line[field] === id;
  } catch {
    return false;
  }
}

async function sqliteHas(path: string, query: string, id: string): Promise<boolean> {
  try {
    if (!Deno.statSync(path).isFile) return false;
  } catch {
    return false;
  }
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare(query).get(id) !== undefined;
  } finally {
    db.close();
  }
}

/** Where a record was looked for, and where it was found. */
export interface RecordSearch {
  /** The record's file, when it was found. */
  found?: string;
  /** Every place looked at, for a person to read. */
  looked: string[];
}

/** Options for {@linkcode findRecord}. */
export interface FindRecordOptions {
  /** The conversation's id. */
  id: string;
  /** The record's file as a hook payload named it, if one did. */
  path?: string | null;
  /** The environment the agent ran in (HOME, its own variables). */
  env: Record<string, string | undefined>;
}

/** Looks for conversation `id`'s record where `rule` says the agent keeps it. */
export async function findRecord(
  rule: RecordRule,
  options: FindRecordOptions,
): Promise<RecordSearch> {
  const looked: string[] = [];
  if (!CONVERSATION_ID.test(options.id)) return { looked };
  const named = (file: string) =>
    rule.header === undefined || headerNames(file, rule.header, options.id);
  const mark = rule.header === undefined
    ? ""
    : ` (its first line holding the id as ${rule.header})`;
  if (options.path) {
    looked.push(options.path + mark);
    if (matching(options.path).some(named)) return { found: options.path, looked };
  }
  for (const pattern of rule.paths ?? []) {
    const path = expandPattern(pattern, options.env, options.id);
    looked.push(path + mark);
    const hit = matching(path).find(named);
    if (hit) return { found: hit, looked };
  }
  if (rule.sqlite) {
    const path = expandPattern(rule.sqlite.path, options.env, options.id);
    looked.push(`${path} (${rule.sqlite.query})`);
    try {
      if (await sqliteHas(path, rule.sqlite.query, options.id)) return { found: path, looked };
    } catch {
      // Not a database, or locked beyond waiting: not found.
    }
  }
  return { looked };
}
