/**
 * `skiff` on every pane's PATH: a small script beside the socket that runs
 * this very program (the same version as the skiffd that owns the pane), so
 * agents in panes can run `skiff ls --json` and talk to their own skiffd
 * (panes get `SKIFF_SOCKET`).
 *
 * @module
 */

import { join } from "../../platform/path.ts";
import { ensureDir, writeFileAtomic } from "../../platform/files.ts";
import { shellLine } from "../../platform/shell.ts";
import { selfCommand } from "../../platform/spawn_self.ts";

/** Writes the `skiff` script into `dir` (made 0700 if missing); returns `dir`. */
export function writeSkiffShim(dir: string): string {
  ensureDir(dir, 0o700);
  const self = selfCommand([]);
  // The entry as a path, as the checkout's launcher runs it: Deno starts a little faster so.
  const args = self.args.map((arg) =>
    arg.startsWith("file://") ? decodeURIComponent(new URL(arg).pathname) : arg
  );
  const script = [
    "#!/bin/sh",
    "# Written by skiffd: runs the skiff that owns this pane.",
    "DENO_NO_UPDATE_CHECK=1 exec " + shellLine([self.program, ...args]) + ' "$@"',
    "",
  ].join("\n");
  writeFileAtomic(join(dir, "skiff"), script, { mode: 0o755 });
  return dir;
}
