/**
 * Modules loaded later by a computed name (`importLater`): `cmd/loaders.ts`
 * names each of them, so that `deno compile` carries it, and the starts that
 * must stay light (`skiff --version`, `skiff ls`, `skiff dash` up to its
 * first frame) build no graph of a module they load only later.
 *
 * @module
 */

import { dirname, join, relative, resolve } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { ROOT } from "../helpers/skiff.ts";
import { LATER } from "../../cmd/loaders.ts";
import { moduleGraph } from "../helpers/module_graph.ts";

function* walk(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

const LATER_CALL = /importLater<([^>]*)>\(\s*"([^"]+)",?\s*\)/g;

/** Every module loaded by `importLater`, as a path from the root, with where it is loaded. */
function laterModules(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const files = [...walk(join(ROOT, "lib")), ...walk(join(ROOT, "cmd")), join(ROOT, "main.ts")];
  for (const file of files) {
    for (const match of Deno.readTextFileSync(file).matchAll(LATER_CALL)) {
      const target = match[2];
      const by = relative(ROOT, file);
      // The type names the same module, relative to the caller.
      const typed = match[1].match(/^typeof import\("([^"]+)"\)$/)?.[1];
      if (typed !== undefined) {
        assertEquals(
          relative(ROOT, resolve(dirname(file), typed)),
          target,
          `${by}: the type's module`,
        );
      }
      found.set(target, [...found.get(target) ?? [], by]);
    }
  }
  return found;
}

Deno.test("later imports: cmd/loaders.ts names every module loaded by a computed name", () => {
  const used = laterModules();
  assert(used.size > 0, "importLater is used");
  const missing = [...used].filter(([target]) => !(target in LATER))
    .map(([target, by]) => `${target} (loaded by ${by.join(", ")})`);
  assertEquals(missing, [], "add these to LATER in cmd/loaders.ts");
  const stale = Object.keys(LATER).filter((target) => !used.has(target));
  assertEquals(stale, [], "nothing loads these by importLater any more");
  for (const target of Object.keys(LATER)) {
    assert(Deno.statSync(join(ROOT, target)).isFile, `${target} exists`);
  }
});

Deno.test("later imports: each loader of LATER loads a module that exports something", async () => {
  for (const [target, load] of Object.entries(LATER)) {
    const module = await load() as Record<string, unknown>;
    assert(Object.keys(module).length > 0, `${target} loads`);
  }
});

/** The modules Deno builds at the start of `entry` that it reaches only by a literal `import()`. */
async function dynamicEdges(entry: string): Promise<string[]> {
  const { root, imports: deps } = await moduleGraph(entry);
  const reached = new Set<string>([root]);
  const queue = [root];
  const dynamic: string[] = [];
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const dep of deps.get(at) ?? []) {
      const to = dep.code?.specifier;
      if (!to) continue;
      if (dep.isDynamic) {
        dynamic.push(`${relative(ROOT, new URL(at).pathname)} -> ${to}`);
      } else if (!reached.has(to)) {
        reached.add(to);
        queue.push(to);
      }
    }
  }
  return dynamic;
}

Deno.test("later imports: light starts reach no module by a literal import()", async () => {
  for (const entry of ["main.ts", "cmd/ls.ts", "cmd/dash.ts", "cmd/send.ts"]) {
    assertEquals(await dynamicEdges(entry), [], `${entry}: load these with importLater`);
  }
});

Deno.test("later imports: a table given by a bundle is used instead of the file's address", async () => {
  const { importLater, useLoaders } = await import("../../lib/platform/later.ts");
  const path = "lib/no/such/module.ts";
  // No file there: without the table the import fails.
  let failed = false;
  await importLater(path).catch(() => failed = true);
  assert(failed, "a module that does not exist cannot be imported by its address");
  useLoaders({ [path]: () => Promise.resolve({ answer: 42 }) });
  assertEquals(await importLater<{ answer: number }>(path), { answer: 42 });
});
