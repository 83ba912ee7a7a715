/**
 * The rules of the source tree's imports, as a checker that reads every
 * module's relative imports and says which ones break a rule. The rules:
 *
 * - **Layers.** Each room under `lib/` has a rank ({@linkcode ROOMS}); a
 *   module imports only its own room, a room of its layer, or rooms ranked
 *   below it.
 * - **The command-line kit.** Nothing under `lib/` but `lib/cli` itself
 *   imports `lib/cli`, and nothing under `lib/` imports `cmd/`: the kit is
 *   for the programs' entries (`main.ts`, `cmd/`, the npm package's).
 * - **skiffd's inside.** `lib/client`, `lib/dash` and the app's page
 *   (`app/`) never import `lib/daemon`.
 * - **Sub-rooms.** Every folder inside a room is a sub-room
 *   ({@linkcode SUB_ROOMS}), ranked as rooms are: a room that grew past about
 *   25 files is cut into them, and a smaller room keeps a part with an
 *   entrance of its own in one. A module outside a sub-room enters it only
 *   through its `mod.ts`.
 * - **No cycles**, module by module.
 *
 * Tests of a module may import it directly, so `tests/` is not read.
 *
 * @module
 */

import { dirname, join, relative, resolve } from "node:path";

/** The rooms under `lib/`, from the bottom up: a room imports itself and anything earlier. */
export const ROOMS: readonly (readonly string[])[] = [
  ["errors.ts", "version.ts", "words.ts"],
  ["platform"],
  ["protocol"],
  ["config"],
  ["screen"],
  ["agents"],
  ["ledger"],
  ["worktree"],
  ["assets"],
  ["client"],
  ["hosts"],
  ["tasks"],
  ["land"],
  ["daemon"],
  ["skipper"],
  ["watch"],
  ["ops"],
  ["mcp"],
  ["overview"],
  ["app"],
  ["dash"],
  ["cli"],
];

/**
 * The sub-rooms of each room that has them (every folder inside a room), from
 * the bottom up. The room's own top-level files (its `mod.ts` and what
 * composes the sub-rooms) rank above all of them.
 */
export const SUB_ROOMS: Readonly<Record<string, readonly string[]>> = {
  "lib/daemon": [
    "runtime",
    "records",
    "panes",
    "screens",
    "restore",
    "workspace",
    "watcher",
    "server",
    "upgrade",
  ],
  "lib/agents": ["profiles"],
  "lib/mcp": ["install", "tools"],
  "lib/dash": ["model", "input", "draw", "later"],
};

/** The folders and files whose imports are read, from the repository's root. */
const READ = ["lib", "cmd", "app", "bench", "scripts", "main.ts", "mod.ts"];

/** Each module (a path from the root) with the modules it imports (paths from the root). */
export type ImportGraph = Map<string, string[]>;

// `import … from`, `export … from`, `import "…"` and `import("…")`.
const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function* walk(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

/** Reads the relative imports of every module under {@linkcode READ}. */
export function readImportGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const top of READ) {
    const path = join(root, top);
    const files = top.endsWith(".ts") ? [path] : [...walk(path)];
    for (const file of files) {
      const text = Deno.readTextFileSync(file);
      const targets: string[] = [];
      for (const match of text.matchAll(SPECIFIER)) {
        const spec = match[1] ?? match[2] ?? match[3];
        if (spec.startsWith(".")) targets.push(relative(root, resolve(dirname(file), spec)));
      }
      graph.set(relative(root, file), targets);
    }
  }
  return graph;
}

/** The room of a module under `lib/` (`daemon`, or `errors.ts` for a top-level file). */
export function roomOf(path: string): string | undefined {
  if (!path.startsWith("lib/")) return undefined;
  return path.slice("lib/".length).split("/")[0];
}

/** The sub-room a module is in (`lib/daemon/panes`), if any. */
export function subRoomOf(path: string): string | undefined {
  for (const [room, subs] of Object.entries(SUB_ROOMS)) {
    if (!path.startsWith(room + "/")) continue;
    const sub = path.slice(room.length + 1).split("/");
    if (sub.length > 1 && subs.includes(sub[0])) return `${room}/${sub[0]}`;
  }
  return undefined;
}

/** The rank of a module within its room's sub-rooms: its sub-room's, or above them all. */
function subRank(room: string, path: string): number {
  const sub = subRoomOf(path);
  const subs = SUB_ROOMS[room];
  return sub ? subs.indexOf(sub.slice(room.length + 1)) : subs.length;
}

const RANK = new Map<string, number>(ROOMS.flatMap((rooms, i) => rooms.map((r) => [r, i])));

/** What breaks each rule, one line per import. */
export interface ImportViolations {
  /** Imports of a room ranked at or above the importer's, or of a room with no rank. */
  layers: string[];
  /** Imports of `lib/cli` or of `cmd/` from the other rooms of `lib/`. */
  cli: string[];
  /** Imports of `lib/daemon` from `lib/client`, `lib/dash` or `app/`. */
  daemon: string[];
  /** Imports into a sub-room from outside it that do not go through its `mod.ts`. */
  entrances: string[];
  /** Imports between sub-rooms of one room against their ranks. */
  subLayers: string[];
  /** Import cycles, each as its chain of modules. */
  cycles: string[];
}

/** Checks every rule against `graph`. */
export function importViolations(graph: ImportGraph): ImportViolations {
  const found: ImportViolations = {
    layers: [],
    cli: [],
    daemon: [],
    entrances: [],
    subLayers: [],
    cycles: [],
  };
  for (const [file, targets] of graph) {
    const from = roomOf(file);
    for (const target of targets) {
      const edge = `${file} imports ${target}`;
      const to = roomOf(target);
      if (from !== undefined) {
        if (to === undefined) found.layers.push(`${edge}, outside lib/`);
        else if (!RANK.has(from) || !RANK.has(to)) {
          found.layers.push(`${edge}: a room with no rank`);
        } else if (to !== from && RANK.get(to)! > RANK.get(from)!) found.layers.push(edge);
        // Rooms of one layer (errors.ts and version.ts) may import each other; no cycle may.
      }
      if (to === "cli" && from !== undefined && from !== "cli") found.cli.push(edge);
      if (from !== undefined && target.startsWith("cmd/")) found.cli.push(edge);
      const insider = from === "client" || from === "dash" || file.startsWith("app/");
      if (to === "daemon" && insider) found.daemon.push(edge);
      const sub = subRoomOf(target);
      if (sub && subRoomOf(file) !== sub && target !== `${sub}/mod.ts`) {
        found.entrances.push(edge);
      }
      if (from !== undefined && from === to && `lib/${from}` in SUB_ROOMS) {
        const room = `lib/${from}`;
        const a = subRank(room, file);
        const b = subRank(room, target);
        if (subRoomOf(file) !== subRoomOf(target) && b >= a) found.subLayers.push(edge);
      }
    }
  }
  found.cycles = cyclesOf(graph);
  return found;
}

function cyclesOf(graph: ImportGraph): string[] {
  const state = new Map<string, "open" | "done">();
  const cycles: string[] = [];
  const visit = (file: string, path: string[]) => {
    const seen = state.get(file);
    if (seen === "done") return;
    if (seen === "open") {
      cycles.push([...path.slice(path.indexOf(file)), file].join(" → "));
      return;
    }
    state.set(file, "open");
    for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
    state.set(file, "done");
  };
  for (const file of graph.keys()) visit(file, []);
  return cycles;
}
