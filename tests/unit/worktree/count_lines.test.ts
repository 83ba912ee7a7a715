/**
 * Counting an untracked file's lines as git's numstat counts a new file's:
 * checked against git itself for each kind of file.
 *
 * @module
 */

import { join } from "node:path";
import { assertEquals } from "../../helpers/assert.ts";
import { git, makeRepo } from "../../helpers/git.ts";
import { countLines } from "../../../lib/worktree/status.ts";

Deno.test("countLines: as git counts a new file, binary and symlinks included", async () => {
  const dir = await Deno.makeTempDir({ prefix: "skiff-count-" });
  try {
    const repo = await makeRepo(join(dir, "repo"));
    const files: Record<string, Uint8Array | string> = {
      "empty": "",
      "one-newline": "\n",
      "no-end": "a\nb",
      "lines": "a\nb\nc\n",
      "crlf": "a\r\nb\r\n",
      "binary": new Uint8Array([65, 0, 66, 10]),
    };
    for (const [name, data] of Object.entries(files)) {
      if (typeof data === "string") await Deno.writeTextFile(join(repo, name), data);
      else await Deno.writeFile(join(repo, name), data);
    }
    await Deno.symlink("lines", join(repo, "link"));
    git(repo, "add", "-N", ...Object.keys(files), "link");
    for (const row of git(repo, "diff", "--numstat").split("\n")) {
      const [added, , name] = row.split("\t");
      const counted = countLines(join(repo, name), 1 << 20);
      assertEquals(
        [name, counted.binary ? "-" : String(counted.lines)],
        [name, added],
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
