/**
 * `deno task build:npm`: builds the npm package's program into `dist/npm/`.
 *
 * npm runs it before `npm pack` (the `prepack` script). Deno refuses to run
 * TypeScript from inside `node_modules`, so the package ships JavaScript: one
 * bundle, split per command so each command still loads only its own code.
 * The npm dependencies stay outside the bundle; npm installs them.
 *
 * @module
 */

import { join } from "node:path";

/** The repository root. */
export const ROOT = new URL("../", import.meta.url).pathname;

/** Where the bundle goes; `package.json` ships this folder. */
export const NPM_OUT = join(ROOT, "dist", "npm");

/** The bundle's entry; the bundle's main file is `skiff.js`. */
const ENTRY = join(ROOT, "scripts", "npm", "skiff.ts");

/** The npm packages the program imports: `package.json`'s dependencies. */
export function npmDependencies(): Record<string, string> {
  const pkg = JSON.parse(Deno.readTextFileSync(join(ROOT, "package.json")));
  return pkg.dependencies ?? {};
}

/**
 * The npm packages only the build and the tests use: xterm.js, which the
 * program carries built in (`lib/assets`), and the browser driver.
 */
export function npmDevDependencies(): Record<string, string> {
  const pkg = JSON.parse(Deno.readTextFileSync(join(ROOT, "package.json")));
  return pkg.devDependencies ?? {};
}

/**
 * Returns the mismatches between `package.json`'s dependencies (and
 * devDependencies) and the import map in `deno.json`: the npm package and
 * the checkout must run the same code.
 */
export function dependencyDrift(): string[] {
  const config = JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json")));
  const imports: Record<string, string> = config.imports ?? {};
  const deps = npmDependencies();
  const dev = npmDevDependencies();
  const drift: string[] = [];
  for (const [name, target] of Object.entries(imports)) {
    if (!target.startsWith("npm:")) continue;
    const want = `npm:${name}@${deps[name] ?? dev[name]}`;
    if (target !== want) {
      drift.push(`deno.json maps ${name} to ${target}, package.json has ${want}`);
    }
  }
  for (const name of [...Object.keys(deps), ...Object.keys(dev)]) {
    if (!(name in imports)) {
      drift.push(`package.json depends on ${name}, deno.json does not map it`);
    }
  }
  return drift;
}

/** Bundles the program into {@linkcode NPM_OUT}; throws with Deno's output on failure. */
export async function buildNpm(): Promise<void> {
  const drift = dependencyDrift();
  if (drift.length > 0) throw new Error(drift.join("; "));
  await Deno.remove(NPM_OUT, { recursive: true }).catch(() => {});
  const externals = Object.keys(npmDependencies()).flatMap((name) => ["--external", name]);
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform=deno",
      "--code-splitting",
      "--keep-names",
      ...externals,
      "--outdir",
      NPM_OUT,
      ENTRY,
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`deno bundle failed:\n${new TextDecoder().decode(output.stderr)}`);
  }
}

if (import.meta.main) {
  try {
    await buildNpm();
  } catch (error) {
    console.error(`build:npm: ${(error as Error).message}`);
    Deno.exit(1);
  }
}
