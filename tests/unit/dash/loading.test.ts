/**
 * The dashboard loads only for `skiff dash`: no other command's module graph
 * holds lib/dash, and what it loads up to its first frame (the start, then
 * the dashboard's own code while skiffd answers) leaves xterm.js, SQLite and
 * the config reader for after it.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { moduleGraph } from "../../helpers/module_graph.ts";

/**
 * The modules `file` loads before it runs: its static imports of values,
 * followed through (dynamic imports and type-only imports are left out).
 */
async function graph(file: string): Promise<string[]> {
  const { root, imports: modules } = await moduleGraph(file);
  const seen = new Set<string>();
  const visit = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const dep of modules.get(specifier) ?? []) {
      if (dep.code && !dep.isDynamic) visit(dep.code.specifier);
    }
  };
  visit(root);
  return [...seen];
}

Deno.test("loading: ls, new, attach, send and events do not load the dashboard", async () => {
  for (const command of ["ls", "new", "attach", "send", "events"]) {
    const modules = await graph(`cmd/${command}.ts`);
    assert(modules.length > 5, `a graph for ${command}`);
    const dash = modules.filter((m) => m.includes("/lib/dash/") || m.includes("/lib/overview/"));
    assertEquals(dash, [], `skiff ${command} loads the dashboard`);
  }
});

Deno.test("loading: the dashboard's first frame needs neither xterm.js, SQLite nor the config reader", async () => {
  const start = await graph("cmd/dash.ts");
  assert(start.some((m) => m.endsWith("/lib/dash/run.ts")), "the start's graph holds the runner");
  // The dashboard's own code loads once the first listing is asked for, before the first frame.
  assert(
    !start.some((m) => m.endsWith("/lib/dash/dashboard.ts")),
    "the dashboard loads after the first listing is asked for",
  );
  const modules = [...start, ...await graph("lib/dash/dashboard.ts")];
  assert(modules.some((m) => m.endsWith("/lib/dash/draw/frame.ts")), "the first frame's graph");
  const heavy = modules.filter((m) =>
    m.includes("@xterm") || m.includes("/lib/ledger/") || m.includes("/lib/skipper/") ||
    m.endsWith("/lib/screen/screen.ts") || m.startsWith("ink") || m.startsWith("react") ||
    // skiffd answers the projects with the panes (workspace.list): no TOML to read first.
    m.endsWith("/lib/config/config.ts") || m.includes("smol-toml")
  );
  assertEquals(heavy, []);
});

Deno.test("loading: the commands agents run most read no config, no agent profile and no TOML", async () => {
  // A pane or a host named on the command line is found through skiffd and lib/hosts; the
  // config reader (smol-toml sets up npm's resolution, 8-10 ms) and the profiles are skiffd's.
  for (const command of ["ls", "send", "capture", "wait", "keys", "seen"]) {
    const heavy = (await graph(`cmd/${command}.ts`)).filter((m) =>
      m.endsWith("/lib/config/config.ts") || m.includes("smol-toml") ||
      m.includes("/lib/agents/") || m.endsWith("/lib/screen/screen.ts") || m.includes("@xterm")
    );
    assertEquals(heavy, [], `skiff ${command}`);
  }
});
