/**
 * The shape of the tree (the rules are in `tests/helpers/import_rules.ts`):
 * rooms in layers, the command-line kit kept to the commands, skiffd's
 * inside kept from its clients, sub-rooms entered through their `mod.ts`,
 * and no cycles. Each rule is checked on the real tree, and once more on
 * the real tree with one violation planted, so that a rule that stopped
 * seeing its violations fails too.
 *
 * @module
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { ROOT } from "../helpers/skiff.ts";
import {
  type ImportGraph,
  type ImportViolations,
  importViolations,
  readImportGraph,
  ROOMS,
  SUB_ROOMS,
} from "../helpers/import_rules.ts";

const GRAPH = readImportGraph(ROOT);

/** The real graph with one more import. */
function planted(file: string, target: string): ImportGraph {
  const graph = new Map([...GRAPH].map(([f, t]) => [f, [...t]]));
  assert(graph.has(file), `${file} is in the tree`);
  graph.get(file)!.push(target);
  return graph;
}

function check(rule: keyof ImportViolations, plant: [string, string]) {
  assertEquals(importViolations(GRAPH)[rule], [], `the tree breaks '${rule}'`);
  const caught = importViolations(planted(...plant))[rule];
  assert(
    caught.some((line) => line.startsWith(`${plant[0]} imports ${plant[1]}`)),
    `a planted ${plant.join(" → ")} is caught by '${rule}': ${caught.join("; ")}`,
  );
}

Deno.test("import rules: rooms import only their own room or rooms below them", () => {
  check("layers", ["lib/platform/path.ts", "lib/daemon/mod.ts"]);
});

Deno.test("import rules: nothing under lib/ but the kit imports lib/cli or cmd/", () => {
  check("cli", ["lib/client/client.ts", "lib/cli/mod.ts"]);
  check("cli", ["lib/dash/run.ts", "cmd/dash.ts"]);
});

Deno.test("import rules: lib/client, lib/dash and app/ never import lib/daemon", () => {
  check("daemon", ["lib/dash/run.ts", "lib/daemon/mod.ts"]);
  check("daemon", ["app/main.ts", "lib/daemon/mod.ts"]);
});

Deno.test("import rules: a sub-room is entered only through its mod.ts", () => {
  check("entrances", ["lib/daemon/run.ts", "lib/daemon/panes/pane.ts"]);
  check("entrances", ["cmd/dash.ts", "lib/dash/draw/frame.ts"]);
  check("entrances", ["lib/daemon/server/methods.ts", "lib/daemon/panes/send.ts"]);
  check("entrances", ["lib/mcp/call.ts", "lib/mcp/tools/tool.ts"]);
  check("entrances", ["lib/agents/hooks.ts", "lib/agents/profiles/hook_events.ts"]);
});

Deno.test("import rules: sub-rooms import only sub-rooms below them", () => {
  check("subLayers", ["lib/daemon/panes/pane.ts", "lib/daemon/server/mod.ts"]);
  check("subLayers", ["lib/dash/model/state.ts", "lib/dash/run.ts"]);
  check("subLayers", ["lib/mcp/tools/tool.ts", "lib/mcp/gates.ts"]);
  check("subLayers", ["lib/mcp/install/install.ts", "lib/mcp/tools/mod.ts"]);
  check("subLayers", ["lib/agents/profiles/claude.ts", "lib/agents/hooks.ts"]);
});

Deno.test("import rules: no module imports itself through a cycle", () => {
  assertEquals(importViolations(GRAPH).cycles, []);
  // A cycle planted from both ends.
  const graph = planted("lib/version.ts", "lib/errors.ts");
  graph.get("lib/errors.ts")!.push("lib/version.ts");
  assert(importViolations(graph).cycles.length > 0, "a two-module cycle is found");
});

Deno.test("import rules: every room and sub-room on disk has a rank", () => {
  const ranked = new Set(ROOMS.flat());
  const rooms = [...Deno.readDirSync(`${ROOT}/lib`)].map((e) => e.name);
  assertEquals(rooms.filter((r) => !ranked.has(r)), [], "rooms missing from ROOMS");
  // Every folder inside a room is one of its sub-rooms, so none is entered past its mod.ts unseen.
  for (const room of rooms.filter((r) => Deno.statSync(`${ROOT}/lib/${r}`).isDirectory)) {
    const onDisk = [...Deno.readDirSync(`${ROOT}/lib/${room}`)].filter((e) => e.isDirectory)
      .map((e) => e.name).sort();
    assertEquals(
      onDisk,
      [...SUB_ROOMS[`lib/${room}`] ?? []].sort(),
      `the sub-rooms of lib/${room}`,
    );
  }
  for (const [room, subs] of Object.entries(SUB_ROOMS)) {
    for (const sub of subs) {
      assert(GRAPH.has(`${room}/${sub}/mod.ts`), `${room}/${sub} has a mod.ts`);
    }
  }
});

Deno.test("import rules: the checker reads the imports of the real tree", () => {
  // Guards the regular expression: the real tree must show known edges.
  assert((GRAPH.get("lib/client/client.ts") ?? []).includes("lib/errors.ts"));
  assert((GRAPH.get("lib/cli/run.ts") ?? []).length > 0);
  assert((GRAPH.get("lib/daemon/run.ts") ?? []).includes("lib/daemon/server/mod.ts"));
  assert((GRAPH.get("cmd/new.ts") ?? []).length > 0);
});

/** The ranked items under `heading` in docs/architecture.md: `- **RANK** \`NAME\`, …: what`. */
function mapRows(heading: string): { rank: number; names: string[] }[] {
  const text = Deno.readTextFileSync(`${ROOT}/docs/architecture.md`);
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === heading);
  assert(start !== -1, `docs/architecture.md has a '${heading}' section`);
  const rows: { rank: number; names: string[] }[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,6} /.test(line)) break;
    const item = line.match(/^- \*\*(\d+)\*\* (.+?):/);
    if (!item) continue;
    rows.push({
      rank: Number(item[1]),
      names: [...item[2].matchAll(/`([^`]+)`/g)].map((m) => m[1]),
    });
  }
  return rows;
}

Deno.test("docs/architecture.md: its room map is the rooms and sub-rooms, in their ranks", () => {
  assertEquals(
    mapRows("### The room map"),
    ROOMS.map((rooms, rank) => ({ rank, names: rooms.map((r) => `lib/${r}`) })),
  );
  for (const [room, subs] of Object.entries(SUB_ROOMS)) {
    assertEquals(
      mapRows(`### The sub-rooms of \`${room}\``),
      subs.map((sub, rank) => ({ rank, names: [`${room}/${sub}`] })),
    );
  }
});
