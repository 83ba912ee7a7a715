/**
 * `skiff` on every pane's PATH: a small script beside the socket that runs
 * this very program (the same version as the skiffd that owns the pane), so
 * agents in panes can run `skiff ls --json` and talk to their own skiffd
 * (panes get `SKIFF_SOCKET`).
 *
 * Agents run it often, so it costs as little as it can: for a compiled
 * binary it is a link to the binary (no shell starts before it), and for a
 * checkout it is one `sh` with builtins only, that tells Deno to skip its
 * check of `node_modules` when the checkout's launcher prepared it for this
 * Deno (the launcher's stamp is newer than the lock and the config).
 *
 * @module
 */

import { basename, dirname, join } from "../../platform/path.ts";
import { ensureDir, pathExists, writeFileAtomic } from "../../platform/files.ts";
import { shellLine, shellQuote } from "../../platform/shell.ts";
import { type CommandLine, selfCommand } from "../../platform/spawn_self.ts";

/** Where the checkout's launcher (`./skiff`) notes that it prepared the npm packages. */
const PREPARED_STAMP = join("node_modules", ".skiff-prepared");

/** Writes the `skiff` script (or link) into `dir` (made 0700 if missing); returns `dir`. */
export function writeSkiffShim(dir: string): string {
  ensureDir(dir, 0o700);
  const target = join(dir, "skiff");
  if (Deno.build.standalone) {
    linkAtomic(Deno.execPath(), target);
  } else {
    writeFileAtomic(target, shimScript(selfCommand([]), Deno.env.get("DENO_DIR") ?? ""), {
      mode: 0o755,
    });
  }
  return dir;
}

/**
 * The script that runs `self` (a `deno run` of the entry) with the pane's
 * arguments. `denoDir` is the `DENO_DIR` the launcher's stamp must name.
 */
export function shimScript(self: CommandLine, denoDir: string): string {
  // The entry as a path, as the checkout's launcher runs it: Deno starts a little faster so.
  const args = self.args.map((arg) =>
    arg.startsWith("file://") ? decodeURIComponent(new URL(arg).pathname) : arg
  );
  const entry = args.find((arg) => arg.endsWith(".ts") && arg.startsWith("/"));
  const run = (flags: string[]) => {
    // Deno's flags go before the entry; what follows it is the program's.
    const at = entry === undefined ? args.length : args.indexOf(entry);
    const line = shellLine([self.program, ...args.slice(0, at), ...flags, ...args.slice(at)]);
    return `DENO_NO_UPDATE_CHECK=1 exec ${line} "$@"`;
  };
  const lines = ["#!/bin/sh", "# Written by skiffd: runs the skiff that owns this pane."];
  const checkout = entry && basename(entry) === "main.ts" ? dirname(entry) : undefined;
  if (checkout !== undefined && pathExists(join(checkout, "deno.json"))) {
    const stamp = join(checkout, PREPARED_STAMP);
    const want = `deno=${self.program} DENO_DIR=${denoDir}`;
    lines.push(
      "# The launcher prepared node_modules for this Deno, and nothing changed since:",
      "# Deno need not check it again (1.5-2 ms a start).",
      `stamp=${shellQuote(stamp)}`,
      "have=",
      `if [ -f "$stamp" ] && [ ! ${shellQuote(join(checkout, "deno.lock"))} -nt "$stamp" ] && ` +
        `[ ! ${shellQuote(join(checkout, "deno.json"))} -nt "$stamp" ]; then`,
      `  IFS= read -r have <"$stamp" || true`,
      "fi",
      `if [ "$have" = ${shellQuote(want)} ]; then`,
      `  ${run(["--node-modules-dir=manual"])}`,
      "fi",
    );
  }
  lines.push(run([]), "");
  return lines.join("\n");
}

/** Points `path` at `target` through a new link renamed over it: never a moment without one. */
function linkAtomic(target: string, path: string): void {
  const temp = `${path}.${Deno.pid}.tmp`;
  try {
    Deno.removeSync(temp);
  } catch {
    // None was left.
  }
  Deno.symlinkSync(target, temp);
  Deno.renameSync(temp, path);
}
