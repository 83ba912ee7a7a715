/**
 * The shape of the tree: which room may import which. Each room under lib/
 * has a rank, and a module may import only its own room or rooms ranked
 * below it, so rooms form layers with no cycles. No module imports another
 * in a cycle, and no room but the command-line kit imports `lib/cli`.
 *
 * @module
 */

import { dirname, join, relative, resolve } from "node:path";
import { assert } from "../helpers/assert.ts";
import { ROOT } from "../helpers/skiff.ts";

/** Rooms from the bottom up; a room may import itself and anything earlier in the list. */
const LAYERS: string[][] = [
  ["errors.ts", "version.ts"],
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
  ["daemon"],
  ["skipper"],
  ["watch"],
  ["overview"],
  ["app"],
  ["dash"],
  ["cli"],
];

const RANK = new Map<string, number>(LAYERS.flatMap((rooms, i) => rooms.map((r) => [r, i])));

function roomOf(file: string): string {
  const rel = relative(join(ROOT, "lib"), file);
  return rel.split("/")[0];
}

function* walk(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Every lib/ module with the lib/ modules it imports (relative specifiers only). */
function graph(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of walk(join(ROOT, "lib"))) {
    const text = Deno.readTextFileSync(file);
    const targets: string[] = [];
    for (const match of text.matchAll(SPECIFIER)) {
      const spec = match[1] ?? match[2];
      if (!spec.startsWith(".")) continue;
      targets.push(resolve(dirname(file), spec));
    }
    edges.set(file, targets);
  }
  return edges;
}

Deno.test("import graph: rooms import only their own room or rooms below them", () => {
  const wrong: string[] = [];
  for (const [file, targets] of graph()) {
    const from = roomOf(file);
    const rank = RANK.get(from);
    assert(rank !== undefined, `lib/${from} has no rank in LAYERS; add it`);
    for (const target of targets) {
      if (!target.startsWith(join(ROOT, "lib"))) {
        wrong.push(`${relative(ROOT, file)} imports ${relative(ROOT, target)}, outside lib/`);
        continue;
      }
      const to = roomOf(target);
      const toRank = RANK.get(to);
      assert(toRank !== undefined, `lib/${to} has no rank in LAYERS; add it`);
      if (to !== from && toRank >= rank) {
        wrong.push(`${relative(ROOT, file)} (${from}) imports ${relative(ROOT, target)} (${to})`);
      }
    }
  }
  assert(wrong.length === 0, `imports against the layers:\n${wrong.join("\n")}`);
});

Deno.test("import graph: only the command-line kit and cmd/ import lib/cli", () => {
  const cli = join(ROOT, "lib", "cli");
  const wrong = [...graph()].flatMap(([file, targets]) =>
    roomOf(file) === "cli"
      ? []
      : targets.filter((t) => t.startsWith(cli + "/")).map((t) =>
        `${relative(ROOT, file)} imports ${relative(ROOT, t)}`
      )
  );
  assert(wrong.length === 0, `lib/ modules importing lib/cli:\n${wrong.join("\n")}`);
});

Deno.test("import graph: no module imports itself through a cycle", () => {
  const edges = graph();
  const state = new Map<string, "open" | "done">();
  const cycles: string[] = [];
  const visit = (file: string, path: string[]) => {
    const seen = state.get(file);
    if (seen === "done") return;
    if (seen === "open") {
      const start = path.indexOf(file);
      cycles.push([...path.slice(start), file].map((f) => relative(ROOT, f)).join(" → "));
      return;
    }
    state.set(file, "open");
    for (const target of edges.get(file) ?? []) visit(target, [...path, file]);
    state.set(file, "done");
  };
  for (const file of edges.keys()) visit(file, []);
  assert(cycles.length === 0, `import cycles:\n${cycles.join("\n")}`);
});

Deno.test("import graph: the checker reads the imports of the real tree", () => {
  // Guards the regular expression: the real tree must show known edges.
  const edges = graph();
  const client = join(ROOT, "lib", "client", "client.ts");
  assert(
    (edges.get(client) ?? []).some((t) => t.endsWith("lib/errors.ts")),
    "expected lib/client/client.ts to import lib/errors.ts",
  );
  const run = join(ROOT, "lib", "cli", "run.ts");
  assert((edges.get(run) ?? []).length > 0, "expected lib/cli/run.ts to have imports");
});
