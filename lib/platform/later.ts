/**
 * Importing a module later, by a computed name.
 *
 * Under `deno run`, Deno builds the graph of every module a start may reach
 * before it runs anything, and an `import("./x.ts")` with a literal name counts:
 * each such branch (the ledger's SQLite, xterm, the hosts) costs every start
 * its resolution, whether the branch runs or not. A computed name is resolved
 * only when it runs.
 *
 * A bundle cannot follow a computed name, so `cmd/loaders.ts` names every
 * module loaded this way with a literal import (`LATER`): `deno compile`
 * carries them through it, and the npm package's bundle, whose modules have
 * no files of their own, hands that table to {@linkcode useLoaders}. A unit
 * test holds the table and the callers together.
 *
 * @module
 */

/** Loaders by module path from the repository's root, where a bundle gave them. */
const loaders = new Map<string, () => Promise<unknown>>();

/**
 * Loads each module through `table` (path from the repository's root to a
 * loader), as a bundle must, instead of by its file's address.
 */
export function useLoaders(table: Readonly<Record<string, () => Promise<unknown>>>): void {
  for (const [path, load] of Object.entries(table)) loaders.set(path, load);
}

/**
 * Imports the module at `path` (from the repository's root, as
 * `"lib/screen/screen.ts"`) when called, without adding it to the graph Deno
 * builds at start. `T` is the module's type: `typeof import("…")`.
 */
export function importLater<T>(path: string): Promise<T> {
  const load = loaders.get(path);
  if (load) return load() as Promise<T>;
  return import(new URL(`../../${path}`, import.meta.url).href);
}
