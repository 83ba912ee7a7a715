/**
 * A second checkout of Skiff for version-skew and upgrade tests: a copy of
 * this tree's program (main.ts, cmd/, lib/, deno.json, package.json) with another version
 * number, and optionally another protocol version or a change of its own.
 * It shares this tree's node_modules through a symlink.
 *
 * @module
 */

import { join } from "node:path";
import { ROOT } from "./skiff.ts";

/** Options for {@linkcode makeCheckout}. */
export interface CheckoutOptions {
  /** The version in lib/version.ts and deno.json. */
  version: string;
  /** The protocol version in lib/version.ts (default: this tree's). */
  protocol?: number;
  /** Text edits, by path under the checkout: each replaces `find` with `replace` (which must be found). */
  edits?: { path: string; find: string | RegExp; replace: string }[];
}

/** A checkout made by {@linkcode makeCheckout}. */
export interface Checkout {
  /** Its folder. */
  dir: string;
  /** Its main.ts. */
  main: string;
  /** Removes it. */
  remove(): Promise<void>;
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory) await copyTree(source, target);
    else if (entry.isFile) await Deno.copyFile(source, target);
  }
}

function edit(text: string, find: string | RegExp, replace: string, what: string): string {
  const hit = typeof find === "string" ? text.includes(find) : find.test(text);
  if (!hit) throw new Error(`checkout: ${what} has no ${find}`);
  return text.replace(find, replace);
}

/** Copies the program into a temp folder with the changes asked for. */
export async function makeCheckout(options: CheckoutOptions): Promise<Checkout> {
  const dir = await Deno.makeTempDir({ prefix: "skiff-checkout-" });
  // package.json too: deno.lock records its dependencies, and without it Deno takes the lock for
  // stale and asks npm's registry again (which a machine with a cold cache and no network fails).
  for (const name of ["main.ts", "deno.json", "deno.lock", "package.json"]) {
    await Deno.copyFile(join(ROOT, name), join(dir, name));
  }
  for (const name of ["cmd", "lib"]) await copyTree(join(ROOT, name), join(dir, name));
  await Deno.symlink(join(ROOT, "node_modules"), join(dir, "node_modules"));
  const versionFile = join(dir, "lib", "version.ts");
  let version = await Deno.readTextFile(versionFile);
  version = edit(version, /VERSION = "[^"]*"/, `VERSION = "${options.version}"`, "version.ts");
  if (options.protocol !== undefined) {
    version = edit(
      version,
      /PROTOCOL_VERSION = \d+/,
      `PROTOCOL_VERSION = ${options.protocol}`,
      "version.ts",
    );
  }
  await Deno.writeTextFile(versionFile, version);
  const denoJson = join(dir, "deno.json");
  await Deno.writeTextFile(
    denoJson,
    edit(
      await Deno.readTextFile(denoJson),
      /"version": "[^"]*"/,
      `"version": "${options.version}"`,
      "deno.json",
    ),
  );
  for (const change of options.edits ?? []) {
    const file = join(dir, change.path);
    await Deno.writeTextFile(
      file,
      edit(await Deno.readTextFile(file), change.find, change.replace, change.path),
    );
  }
  return {
    dir,
    main: join(dir, "main.ts"),
    remove: () => Deno.remove(dir, { recursive: true }).catch(() => {}),
  };
}
