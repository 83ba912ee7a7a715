/**
 * The module graph Deno builds for an entry (`deno info --json`), for tests
 * about what a start loads.
 *
 * @module
 */

import { assert } from "./assert.ts";
import { ROOT } from "./skiff.ts";

/** One import of a module, as `deno info` reports it. */
export interface GraphEdge {
  /** The module it loads, when it loads code. */
  code?: { specifier: string };
  /** Whether it is an `import()`. */
  isDynamic?: boolean;
}

/** The graph of `entry` (a path from the root): its root's specifier, and each module's imports. */
export async function moduleGraph(
  entry: string,
): Promise<{ root: string; imports: Map<string, GraphEdge[]> }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: { specifier: string; dependencies?: GraphEdge[] }[];
  };
  return {
    root: info.roots[0],
    imports: new Map(info.modules.map((m) => [m.specifier, m.dependencies ?? []])),
  };
}
