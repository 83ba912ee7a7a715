/**
 * The dashboard loads only for `skiff dash`: no other command's module graph
 * holds lib/dash, and the dashboard's own first load leaves xterm.js and
 * SQLite for after its first frame.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { ROOT } from "../../helpers/skiff.ts";

interface Dependency {
  code?: { specifier: string };
  isDynamic?: boolean;
}

/**
 * The modules `file` loads before it runs: its static imports of values,
 * followed through (dynamic imports and type-only imports are left out).
 */
async function graph(file: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", file],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  const modules = new Map<string, Dependency[]>(
    info.modules.map((m: { specifier: string; dependencies?: Dependency[] }) => [
      m.specifier,
      m.dependencies ?? [],
    ]),
  );
  const seen = new Set<string>();
  const visit = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const dep of modules.get(specifier) ?? []) {
      if (dep.code && !dep.isDynamic) visit(dep.code.specifier);
    }
  };
  visit(info.roots[0]);
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

Deno.test("loading: the dashboard's first frame needs neither xterm.js nor SQLite", async () => {
  const modules = await graph("cmd/dash.ts");
  assert(
    modules.some((m) => m.endsWith("/lib/dash/dashboard.ts")),
    "the graph holds the dashboard",
  );
  const heavy = modules.filter((m) =>
    m.includes("@xterm") || m.includes("/lib/ledger/") || m.includes("/lib/skipper/") ||
    m.endsWith("/lib/screen/screen.ts") || m.startsWith("ink") || m.startsWith("react")
  );
  assertEquals(heavy, []);
});
